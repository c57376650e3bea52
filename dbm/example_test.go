package dbm_test

import (
	"fmt"

	"github.com/tcheck/tcheck/dbm"
)

// A symbolic successor: from x = y = 0, let time pass, take an edge with
// guard x ≥ 1 that resets y, and let time pass under the invariant x ≤ 3.
func Example() {
	const x, y = 1, 2
	z := dbm.New(3) // two clocks plus the reference clock
	z.Zero()
	z.Up()
	z.Constrain(0, x, dbm.LE(-1)) // guard x ≥ 1, written −x ≤ −1
	z.Reset(y, 0)
	z.Up()
	z.Constrain(x, 0, dbm.LE(3)) // invariant x ≤ 3
	fmt.Println(z.Format([]string{"", "x", "y"}))
	fmt.Print(z.Matrix())
	// Output:
	// x<=3 && x-y>=1
	//       0     x1    x2
	// 0     <=0   <=-1  <=0
	// x1    <=3   <=0   <=3
	// x2    <=2   <=-1  <=0
}

func ExampleDBM_Constrain() {
	z := dbm.New(2)
	fmt.Println(z.Constrain(1, 0, dbm.LT(5)), z)  // x1 < 5
	fmt.Println(z.Constrain(0, 1, dbm.LE(-5)), z) // x1 ≥ 5: empty
	// Output:
	// true x1<5
	// false false
}

func ExampleDBM_Relation() {
	a := dbm.New(2)
	a.Constrain(1, 0, dbm.LE(2))
	b := a.Clone()
	b.Up()
	fmt.Println(a.Relation(b), b.Relation(a), a.Relation(a))
	// Output: subset superset equal
}

func ExampleDBM_ExtraLUPlus() {
	// x ≥ 2 ∧ x < 5 ∧ x ≤ y ∧ y − x < 3 with L = (1, 10), U = (1, 1):
	// x is above its lower bound and loses its relation to y.
	z := dbm.New(3)
	z.Constrain(0, 1, dbm.LE(-2))
	z.Constrain(1, 0, dbm.LT(5))
	z.Constrain(1, 2, dbm.LE(0))
	z.Constrain(2, 1, dbm.LT(3))
	z.ExtraLUPlus([]int32{0, 1, 10}, []int32{0, 1, 1})
	fmt.Println(z)
	// Output: x1>1 && x2>1 && x2<8
}

func ExampleDBM_Point() {
	// 0 < x1 < x2 < 1 has no integer point; Point finds one on a finer
	// lattice. All values share one denominator.
	z := dbm.New(3)
	z.Constrain(0, 1, dbm.LT(0))
	z.Constrain(1, 2, dbm.LT(0))
	z.Constrain(2, 0, dbm.LT(1))
	num, den := z.Point()
	fmt.Println(num, den, z.Contains(num, den))
	// Output: [0 1 2] 4 true
}

func ExampleDBM_Subtract() {
	// [0, 10] minus [3, 5] is [0, 3) ∪ (5, 10].
	a := dbm.New(2)
	a.Constrain(1, 0, dbm.LE(10))
	b := dbm.New(2)
	b.Constrain(0, 1, dbm.LE(-3))
	b.Constrain(1, 0, dbm.LE(5))
	fmt.Println(a.Subtract(b, dbm.Federation{}))
	// Output: (x1<3) || (x1>5 && x1<=10)
}

func ExampleFederation_IncludesDBM() {
	// [0, 4] is covered by [0, 2] ∪ [1, 4] but by neither alone.
	mk := func(lo, hi int32) dbm.DBM {
		z := dbm.New(2)
		z.Constrain(0, 1, dbm.LE(-lo))
		z.Constrain(1, 0, dbm.LE(hi))
		return z
	}
	f := dbm.FederationOf(2, mk(0, 2), mk(1, 4))
	fmt.Println(f.IncludesDBM(mk(0, 4)), f.IncludesDBM(mk(0, 5)))
	// Output: true false
}

func ExampleCheckConst() {
	fmt.Println(dbm.CheckConst(1000))
	fmt.Println(dbm.CheckConst(1 << 40))
	// Output:
	// <nil>
	// clock constant 1099511627776 out of range [-536870911, 536870911]
}
