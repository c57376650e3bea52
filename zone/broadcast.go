package zone

// receiving edge per other process that has any.
func (st *Stepper) broadcast(e enabledEdge, emit func(Move) bool) bool {
	es := &st.cur
	rs := es.recvs[e.ch]
	st.groups = st.groups[:0]
	for k := 0; k < len(rs); {
		p := es.enabled[rs[k]].proc
		end := k + 1
		for end < len(rs) && es.enabled[rs[end]].proc == p {
			end++
		}
		if p != e.proc {
			st.groups = append(st.groups, [2]int32{int32(k), int32(end)})
		}
		k = end
	}
	st.odometer = st.odometer[:0]
	for _, g := range st.groups {
		st.odometer = append(st.odometer, g[0])
	}
	for {
		st.move = append(st.move[:0], EdgeRef{e.proc, e.edge})
		for _, k := range st.odometer {
			r := es.enabled[rs[k]]
			st.move = append(st.move, EdgeRef{r.proc, r.edge})
		}
		if !emit(st.move) {
			return false
		}
		// advance the odometer, last group fastest
		g := len(st.groups) - 1
		for ; g >= 0; g-- {
			st.odometer[g]++
			if st.odometer[g] < st.groups[g][1] {
				break
			}
			st.odometer[g] = st.groups[g][0]
		}
		if g < 0 {
			return true
		}
	}
}
