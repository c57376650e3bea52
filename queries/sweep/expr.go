package sweep

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/model/syntax"
)

// Filter is a compiled `where` condition over the parameters of a point: an
// expression in the model language (integer arithmetic, comparisons,
// &&, ||, !, imply, ?:) whose names are parameters.
type Filter struct {
	Src string
	x   syntax.Expr
}

// ParseFilter parses a where condition; "" gives the filter that keeps
// every point.
func ParseFilter(src string) (*Filter, error) {
	if strings.TrimSpace(src) == "" {
		return &Filter{}, nil
	}
	x, err := syntax.ParseExpr(src)
	if err != nil {
		return nil, fmt.Errorf("where %q: %v", src, err)
	}
	return &Filter{Src: strings.TrimSpace(src), x: x}, nil
}

// Keep evaluates the filter with the given parameter values (later entries
// win over earlier ones with the same name).
func (f *Filter) Keep(params ...[]Param) (bool, error) {
	if f == nil || f.x == nil {
		return true, nil
	}
	env := map[string]int64{}
	for _, ps := range params {
		for _, p := range ps {
			env[p.Name] = p.Value
		}
	}
	v, err := evalInt(f.x, env)
	if err != nil {
		return false, fmt.Errorf("where %s: %v", f.Src, err)
	}
	return v != 0, nil
}

// evalInt evaluates an integer expression with C semantics (booleans are 0
// and 1, division truncates) over the names in env.
func evalInt(x syntax.Expr, env map[string]int64) (int64, error) {
	switch x := x.(type) {
	case *syntax.IntLit:
		return x.Value, nil
	case *syntax.BoolLit:
		return b2i(x.Value), nil
	case *syntax.ParenExpr:
		return evalInt(x.X, env)
	case *syntax.Ident:
		v, ok := env[x.Name]
		if !ok {
			return 0, fmt.Errorf("%s is not a parameter", x.Name)
		}
		return v, nil
	case *syntax.UnaryExpr:
		a, err := evalInt(x.X, env)
		if err != nil {
			return 0, err
		}
		switch x.Op {
		case syntax.OpNeg:
			return -a, nil
		case syntax.OpPlus:
			return a, nil
		case syntax.OpNot:
			return b2i(a == 0), nil
		case syntax.OpBitNot:
			return ^a, nil
		}
	case *syntax.CondExpr:
		c, err := evalInt(x.Cond, env)
		if err != nil {
			return 0, err
		}
		if c != 0 {
			return evalInt(x.Then, env)
		}
		return evalInt(x.Else, env)
	case *syntax.BinaryExpr:
		a, err := evalInt(x.X, env)
		if err != nil {
			return 0, err
		}
		// Short-circuit logic, as in C.
		switch x.Op {
		case syntax.OpAnd:
			if a == 0 {
				return 0, nil
			}
		case syntax.OpOr:
			if a != 0 {
				return 1, nil
			}
		case syntax.OpImply:
			if a == 0 {
				return 1, nil
			}
		}
		b, err := evalInt(x.Y, env)
		if err != nil {
			return 0, err
		}
		switch x.Op {
		case syntax.OpAnd, syntax.OpOr, syntax.OpImply:
			return b2i(b != 0), nil
		case syntax.OpMul:
			return a * b, nil
		case syntax.OpPow:
			return pow64(a, b, x)
		case syntax.OpDiv, syntax.OpMod:
			if b == 0 {
				return 0, fmt.Errorf("division by zero in %s", syntax.Format(x))
			}
			if x.Op == syntax.OpDiv {
				return a / b, nil
			}
			return a % b, nil
		case syntax.OpAdd:
			return a + b, nil
		case syntax.OpSub:
			return a - b, nil
		case syntax.OpShl:
			return a << uint64(b&63), nil
		case syntax.OpShr:
			return a >> uint64(b&63), nil
		case syntax.OpBitAnd:
			return a & b, nil
		case syntax.OpBitXor:
			return a ^ b, nil
		case syntax.OpBitOr:
			return a | b, nil
		case syntax.OpMin:
			return min(a, b), nil
		case syntax.OpMax:
			return max(a, b), nil
		case syntax.OpLT:
			return b2i(a < b), nil
		case syntax.OpLE:
			return b2i(a <= b), nil
		case syntax.OpGT:
			return b2i(a > b), nil
		case syntax.OpGE:
			return b2i(a >= b), nil
		case syntax.OpEQ:
			return b2i(a == b), nil
		case syntax.OpNE:
			return b2i(a != b), nil
		}
	}
	return 0, fmt.Errorf("%s is not allowed here (integer arithmetic, comparisons and logic over parameters only)", syntax.Format(x))
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// ModelExpr is an integer expression evaluated against a compiled model:
// it may use the model's parameters and constants (e.g. U, T of the
// bundled models) and side-effect-free functions; variables take their
// initial values. Plot overlays and `= EXPR` expectations use it.
type ModelExpr struct {
	Src string
	x   syntax.Expr
}

// ParseModelExpr parses an expression for evaluation against models.
func ParseModelExpr(src string) (*ModelExpr, error) {
	src = strings.TrimSpace(src)
	x, err := syntax.ParseExpr(src)
	if err != nil {
		return nil, fmt.Errorf("%q: %v", src, err)
	}
	return &ModelExpr{Src: src, x: x}, nil
}

// Eval evaluates e on the compiled network net.
func (e *ModelExpr) Eval(net *model.Network) (int64, error) {
	t, err := net.CompileTerm(e.x, model.NewText(e.Src, model.Pos{File: "expression", Line: 1, Col: 1}))
	if err != nil {
		return 0, err
	}
	if t.Data == nil {
		return 0, fmt.Errorf("%s is a clock, not a constant expression", e.Src)
	}
	env := net.NewEnv()
	v := t.Data(env)
	if env.Err != nil {
		return 0, fmt.Errorf("%s: %v", e.Src, env.Err)
	}
	return int64(v), nil
}

// pow64 is a ** b for b ≥ 0, an error when it does not fit in 64 bits (the
// model's own arithmetic reports 32-bit overflow when it is compiled).
func pow64(a, b int64, x syntax.Expr) (int64, error) {
	if b < 0 {
		return 0, fmt.Errorf("negative exponent in %s", syntax.Format(x))
	}
	if (a > 1 || a < -1) && b >= 64 {
		return 0, fmt.Errorf("overflow in %s", syntax.Format(x))
	}
	r := new(big.Int).Exp(big.NewInt(a), big.NewInt(b), nil)
	if !r.IsInt64() {
		return 0, fmt.Errorf("overflow in %s", syntax.Format(x))
	}
	return r.Int64(), nil
}
