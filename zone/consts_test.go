package zone

import (
	"testing"

	"github.com/tcheck/tcheck/dbm"
	"github.com/tcheck/tcheck/model"
)

// TestModelConstantRangeIsTheDBMs proves that the range the model compiler
// enforces on clock constants is the DBM's (package model does not import
// dbm, so the two constants are kept equal here): a constant the compiler
// accepts can always be encoded, and sums of two cannot overflow.
func TestModelConstantRangeIsTheDBMs(t *testing.T) {
	if model.MaxClockConst != int64(dbm.MaxConst) {
		t.Fatalf("model.MaxClockConst = %d, dbm.MaxConst = %d", model.MaxClockConst, dbm.MaxConst)
	}
	if model.NoBound > -int32(dbm.MaxConst) {
		t.Fatalf("model.NoBound = %d is a bound a model can give", model.NoBound)
	}
	if dbm.CheckConst(model.MaxClockConst) != nil || dbm.CheckConst(model.MaxClockConst+1) == nil {
		t.Fatal("dbm.CheckConst disagrees with model.MaxClockConst")
	}
}
