package difftest

import (
	"errors"

	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/model/syntax"
	"github.com/tcheck/tcheck/queries"
	"github.com/tcheck/tcheck/refcheck"
)

// RegionReference is the reference checker of package refcheck: an
// explicit exploration of the region graph that shares no code with zone/
// and dbm/. Its explorations are full: a run-time model error anywhere in
// the reachable part is reported whatever the formula.
type RegionReference struct{ Opts refcheck.Options }

func (r RegionReference) Reachable(net *model.Network, f *model.Formula) (bool, error) {
	return refcheck.Reachable(net, f, r.Opts)
}

func (r RegionReference) Invariant(net *model.Network, f *model.Formula) (bool, error) {
	return refcheck.Invariant(net, f, r.Opts)
}

func (r RegionReference) Extreme(net *model.Network, cond *model.Formula, term model.Term, sup bool) (SupValue, error) {
	switch {
	case term.Clock > 0 && sup:
		return refcheck.Sup(net, cond, term.Clock, r.Opts)
	case term.Clock > 0:
		return refcheck.Inf(net, cond, term.Clock, r.Opts)
	}
	return refcheck.Data(net, cond, term.Data, sup, r.Opts)
}

func (r RegionReference) Live(net *model.Network, kind syntax.QueryKind, f, g *model.Formula) (bool, error) {
	return refcheck.Live(net, kind, f, g, r.Opts)
}

func (r RegionReference) From(st *queries.State, within int32) Reference {
	r.Opts.From = &refcheck.Start{Locs: st.Locs, Vars: st.Vars, Clocks: st.Clocks}
	r.Opts.Within = within
	return r
}

func (RegionReference) Kind(err error) ErrKind {
	var u *refcheck.Unsupported
	var m *refcheck.ModelError
	switch {
	case err == nil:
		return ErrNone
	case errors.Is(err, refcheck.ErrLimit):
		return ErrLimit
	case errors.As(err, &u):
		return ErrUnsupported
	case errors.As(err, &m):
		return ErrModel
	}
	return ErrOther
}

// defaultReference is the reference the tests compare with.
func defaultReference() Reference {
	return RegionReference{Opts: refcheck.Options{MaxStates: RefMaxStates, SupCeiling: SupCeiling}}
}
