package cosim

// EventLanes returns the events of one m_evt beat of mpa_rx
// (docs/design.md section 4): m_evt_tdata holds EVT_LANES lanes of 128
// bits (two words each, least significant first, lane 0 first) and
// m_evt_tkeep 16 bits per lane, set on the lanes that hold an event,
// which are contiguous from lane 0. Each event is returned as its two
// words.
func EventLanes(tdata, tkeep Port, rec []uint64) [][]uint64 {
	w := tdata.Slice(rec)
	keep := tkeep.Get(rec)
	var out [][]uint64
	for i := 0; 2*i+1 < len(w) && i < 4; i++ {
		if keep>>(16*i)&1 == 0 {
			break
		}
		out = append(out, w[2*i:2*i+2])
	}
	return out
}
