package ddp

import (
	"errors"
	"math"
	"math/rand"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	s1, s2            StreamID = 1, 2
	stagA, stagB      uint32   = 0x100, 0x200
	baseA, baseB      uint64   = 0x10000, 0x18000
	lenA, lenB        uint64   = 4096, 512
	recv1, recv2      uint64   = 0x20000, 0x30000
	recv1Len, recv2Ln uint64   = 256, 100
)

// fixture: STag A (4096 octets) on stream 1, STag B (512) on stream 2, and
// two buffers posted to stream 1 QN 0 (MSN 1: 256 octets, MSN 2: 100).
func fixture(t *testing.T) *Placer {
	t.Helper()
	p := NewPlacer(NewMemory())
	require.NoError(t, p.RegisterSTag(stagA, s1, baseA, lenA))
	require.NoError(t, p.RegisterSTag(stagB, s2, baseB, lenB))
	require.NoError(t, p.PostRecv(s1, 0, recv1, recv1Len))
	require.NoError(t, p.PostRecv(s1, 0, recv2, recv2Ln))
	return p
}

func tagged(stag uint32, to uint64, n int) []byte {
	return segment(Header{Tagged: true, Last: true, Version: 1, STag: stag, TO: to}, n)
}

func untagged(qn, msn, mo uint32, n int) []byte {
	return segment(Header{Last: true, Version: 1, ULPCtrl: 0x43, QN: qn, MSN: msn, MO: mo}, n)
}

// segment encodes h followed by n octets of a pattern that differs per call.
func segment(h Header, n int) []byte {
	b := h.AppendTo(nil)
	for i := 0; i < n; i++ {
		b = append(b, byte(i*13+int(h.MO)+int(h.TO)+1))
	}
	return b
}

func TestPlaceErrors(t *testing.T) {
	tests := []struct {
		name       string
		setup      func(p *Placer)
		stream     StreamID
		ulpdu      []byte
		kind       Kind
		typ, code  uint8 // RFC 5041 section 7.2, written out here as fixed points
		wantHeader bool
	}{
		{"short-header", nil, s1, []byte{0x81, 0, 0, 0, 1}, KindShortHeader, 0, 0x00, false},
		{"tagged-version-0", nil, s1, segment(Header{Tagged: true, STag: stagA}, 8), KindTaggedVersion, 1, 0x04, true},
		{"tagged-version-2", nil, s1, segment(Header{Tagged: true, Version: 2, STag: stagA}, 8), KindTaggedVersion, 1, 0x04, true},
		{"stag-unknown", nil, s1, tagged(0x999, 0, 8), KindInvalidSTag, 1, 0x00, true},
		{"stag-invalidated", func(p *Placer) { p.InvalidateSTag(stagA) }, s1, tagged(stagA, 0, 8), KindInvalidSTag, 1, 0x00, true},
		{"stag-other-stream", nil, s1, tagged(stagB, 0, 8), KindSTagNotAssociated, 1, 0x02, true},
		{"stag-unknown-stream", nil, 7, tagged(stagA, 0, 8), KindSTagNotAssociated, 1, 0x02, true},
		{"to-wrap", nil, s1, tagged(stagA, math.MaxUint64-10, 12), KindTOWrap, 1, 0x03, true},
		{"to-wrap-by-one", nil, s1, tagged(stagA, math.MaxUint64, 2), KindTOWrap, 1, 0x03, true},
		{"to-last-octet-no-wrap", nil, s1, tagged(stagA, math.MaxUint64-19, 20), KindBaseBounds, 1, 0x01, true},
		{"bounds-end", nil, s1, tagged(stagA, lenA-100, 101), KindBaseBounds, 1, 0x01, true},
		{"bounds-to-past-end", nil, s1, tagged(stagA, lenA+1, 0), KindBaseBounds, 1, 0x01, true},
		{"bounds-huge-to", nil, s1, tagged(stagA, 1<<40, 4), KindBaseBounds, 1, 0x01, true},
		{"untagged-version-0", nil, s1, segment(Header{MSN: 1}, 8), KindUntaggedVersion, 2, 0x06, true},
		{"qn-3", nil, s1, untagged(3, 1, 0, 8), KindInvalidQN, 2, 0x01, true},
		{"qn-max", nil, s1, untagged(math.MaxUint32, 1, 0, 8), KindInvalidQN, 2, 0x01, true},
		{"msn-0-below-current", nil, s1, untagged(0, 0, 0, 8), KindMSNRange, 2, 0x03, true},
		{"msn-current-plus-2^31", nil, s1, untagged(0, 1+1<<31, 0, 8), KindMSNRange, 2, 0x03, true},
		{"msn-completed", func(p *Placer) {
			_, err := p.Deliver(s1, Header{Last: true, Version: 1, QN: 0, MSN: 1})
			require.NoError(t, err)
		}, s1, untagged(0, 1, 0, 8), KindMSNRange, 2, 0x03, true},
		{"msn-last-in-range-no-buffer", nil, s1, untagged(0, 1<<31, 0, 8), KindNoBuffer, 2, 0x02, true},
		{"msn-3-not-posted", nil, s1, untagged(0, 3, 0, 8), KindNoBuffer, 2, 0x02, true},
		{"qn-1-nothing-posted", nil, s1, untagged(1, 1, 0, 8), KindNoBuffer, 2, 0x02, true},
		{"other-stream-nothing-posted", nil, s2, untagged(0, 1, 0, 8), KindNoBuffer, 2, 0x02, true},
		{"mo-past-end", nil, s1, untagged(0, 1, uint32(recv1Len)+1, 0), KindInvalidMO, 2, 0x04, true},
		{"mo-far-past-end", nil, s1, untagged(0, 2, 0xffffffff, 10), KindInvalidMO, 2, 0x04, true},
		{"too-long", nil, s1, untagged(0, 1, 200, 57), KindTooLong, 2, 0x05, true},
		{"too-long-mo-at-end", nil, s1, untagged(0, 1, uint32(recv1Len), 1), KindTooLong, 2, 0x05, true},
		{"too-long-msn-2", nil, s1, untagged(0, 2, 0, int(recv2Ln)+1), KindTooLong, 2, 0x05, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := fixture(t)
			if tc.setup != nil {
				tc.setup(p)
			}
			before := p.Image()
			logLen := len(p.Memory().Log())

			pl, err := p.Place(tc.stream, tc.ulpdu)
			require.ErrorIs(t, err, tc.kind)
			var de *Error
			require.ErrorAs(t, err, &de)
			assert.Equal(t, tc.typ, de.Kind.Type(), "RFC 5041 error type")
			assert.Equal(t, tc.code, de.Kind.Code(), "RFC 5041 error code")
			if tc.wantHeader {
				wantH, _, perr := ParseHeader(tc.ulpdu)
				require.NoError(t, perr)
				assert.Equal(t, wantH, pl.Header, "the header is reported with the error")
			}
			assert.Zero(t, pl.Len)
			// Nothing written: no log entry, and every buffer unchanged.
			assert.Len(t, p.Memory().Log(), logLen)
			assert.Equal(t, before, p.Image())
		})
	}
}

func TestPlaceBoundaries(t *testing.T) {
	tests := []struct {
		name   string
		stream StreamID
		ulpdu  []byte
		addr   uint64
	}{
		{"tagged-fills-end", s1, tagged(stagA, lenA-100, 100), baseA + lenA - 100},
		{"tagged-whole-buffer", s1, tagged(stagA, 0, int(lenA)), baseA},
		{"tagged-empty-at-end", s1, tagged(stagA, lenA, 0), baseA + lenA},
		{"tagged-stream-2", s2, tagged(stagB, 7, 9), baseB + 7},
		{"untagged-fills-buffer", s1, untagged(0, 1, 56, 200), recv1 + 56},
		{"untagged-empty-at-end", s1, untagged(0, 1, uint32(recv1Len), 0), recv1 + recv1Len},
		{"untagged-msn-2-before-1", s1, untagged(0, 2, 0, int(recv2Ln)), recv2},
		{"untagged-empty", s1, untagged(0, 1, 0, 0), recv1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := fixture(t)
			pl, err := p.Place(tc.stream, tc.ulpdu)
			require.NoError(t, err)
			h, payload, _ := ParseHeader(tc.ulpdu)
			assert.Equal(t, h, pl.Header)
			assert.Equal(t, tc.addr, pl.Addr)
			assert.Equal(t, len(payload), pl.Len)
			assert.Equal(t, payload, p.Memory().Read(tc.addr, len(payload)))
			require.Len(t, p.Memory().Log(), 1)
			assert.Equal(t, Write{Stream: tc.stream, Addr: tc.addr, Data: payload}, p.Memory().Log()[0])
		})
	}
}

// TestOutOfOrderPlacement splits one untagged message and one tagged RDMA
// Write into random segments, places them in random order, and checks that
// memory holds exactly the messages and that only the L segment delivers.
func TestOutOfOrderPlacement(t *testing.T) {
	r := rand.New(rand.NewSource(4))
	for iter := 0; iter < 50; iter++ {
		p := NewPlacer(NewMemory())
		const size = 3000
		require.NoError(t, p.PostRecv(s1, 0, 0x5000, uint64(size+r.Intn(100))))
		require.NoError(t, p.RegisterSTag(stagA, s1, 0x9000, 2*size))
		send := make([]byte, size-r.Intn(500))
		write := make([]byte, size)
		r.Read(send)
		r.Read(write)
		toBase := uint64(r.Intn(size))

		var segs [][]byte
		var last [2][]byte
		for _, tg := range []bool{false, true} {
			msg := send
			if tg {
				msg = write
			}
			for off := 0; off < len(msg); {
				n := min(len(msg)-off, 1+r.Intn(700))
				h := Header{Tagged: tg, Version: 1, Last: off+n == len(msg), STag: stagA, TO: toBase + uint64(off), MSN: 1, MO: uint32(off)}
				seg := append(h.AppendTo(nil), msg[off:off+n]...)
				segs = append(segs, seg)
				if h.Last {
					last[btoi(tg)] = seg
				}
				off += n
			}
		}
		r.Shuffle(len(segs), func(i, j int) { segs[i], segs[j] = segs[j], segs[i] })
		for _, seg := range segs {
			_, err := p.Place(s1, seg)
			require.NoError(t, err)
		}
		assert.Equal(t, send, p.Memory().Read(0x5000, len(send)))
		assert.Equal(t, write, p.Memory().Read(0x9000+toBase, len(write)))
		assert.Len(t, p.Memory().Log(), len(segs))

		assert.Equal(t, uint32(1), p.CurrentMSN(s1, 0), "placement alone completes nothing")
		hl, _, _ := ParseHeader(last[0])
		dv, err := p.Deliver(s1, hl)
		require.NoError(t, err)
		assert.Equal(t, Delivery{Stream: s1, Header: hl, Addr: 0x5000, Len: uint64(len(send))}, dv)
		assert.Equal(t, uint32(2), p.CurrentMSN(s1, 0))
		ht, _, _ := ParseHeader(last[1])
		dv, err = p.Deliver(s1, ht)
		require.NoError(t, err)
		assert.Equal(t, Delivery{Stream: s1, Header: ht}, dv)
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestDeliveryAdvancesMSN(t *testing.T) {
	p := NewPlacer(NewMemory())
	for i := 0; i < 3; i++ {
		require.NoError(t, p.PostRecv(s1, 1, uint64(0x1000*(i+1)), 64))
	}
	require.NoError(t, p.PostRecv(s1, 2, 0x8000, 64)) // queues are independent
	hdr := func(qn, msn uint32, last bool) Header {
		return Header{Last: last, Version: 1, QN: qn, MSN: msn}
	}

	// MSN 3 may be placed before 1 and 2 are complete.
	_, err := p.Place(s1, untagged(1, 3, 10, 5))
	require.NoError(t, err)
	_, err = p.Deliver(s1, hdr(1, 3, true))
	require.ErrorIs(t, err, ErrDelivery, "MSN 3 cannot complete before MSN 1")
	_, err = p.Deliver(s1, hdr(1, 1, false))
	require.ErrorIs(t, err, ErrDelivery, "a segment without L completes nothing")
	_, err = p.Deliver(s1, hdr(7, 1, true))
	require.ErrorIs(t, err, ErrDelivery)
	assert.Equal(t, uint32(1), p.CurrentMSN(s1, 1))

	for msn := uint32(1); msn <= 3; msn++ {
		dv, err := p.Deliver(s1, hdr(1, msn, true))
		require.NoError(t, err)
		assert.Equal(t, uint64(0x1000*msn), dv.Addr)
		wantLen := uint64(0) // nothing was placed for MSNs 1 and 2
		if msn == 3 {
			wantLen = 15 // 5 octets at MO 10
		}
		assert.Equal(t, wantLen, dv.Len)
		assert.Equal(t, msn+1, p.CurrentMSN(s1, 1))
		// A completed MSN is out of range from now on.
		_, err = p.Place(s1, untagged(1, msn, 0, 1))
		require.ErrorIs(t, err, KindMSNRange)
	}
	dv, err := p.Deliver(s1, hdr(2, 1, true))
	require.NoError(t, err)
	assert.Equal(t, Delivery{Stream: s1, Header: hdr(2, 1, true), Addr: 0x8000}, dv)

	_, err = p.Place(s1, untagged(1, 4, 0, 1))
	require.ErrorIs(t, err, KindNoBuffer)
	_, err = p.Deliver(s1, hdr(1, 4, true))
	require.ErrorIs(t, err, ErrDelivery, "no buffer for MSN 4")
	require.NoError(t, p.PostRecv(s1, 1, 0x4000, 64))
	_, err = p.Place(s1, untagged(1, 4, 0, 64))
	require.NoError(t, err)
	dv, err = p.Deliver(s1, hdr(1, 4, true))
	require.NoError(t, err)
	assert.Equal(t, uint64(64), dv.Len)
	assert.Equal(t, uint32(5), p.CurrentMSN(s1, 1))
	assert.Equal(t, uint32(2), p.CurrentMSN(s1, 2))
	assert.Equal(t, uint32(1), p.CurrentMSN(s1, 0))
	assert.Equal(t, uint32(1), p.CurrentMSN(s2, 0))
	assert.Equal(t, uint32(0), p.CurrentMSN(s1, 3))
}

func TestVersion0Mode(t *testing.T) {
	p := NewPlacer(NewMemory())
	p.Version = VersionRDMC
	require.NoError(t, p.PostRecv(s1, 0, 0x100, 64))
	require.NoError(t, p.RegisterSTag(stagA, s1, 0x1000, 64))

	pl, err := p.Place(s1, figure5ULPDU)
	require.NoError(t, err)
	assert.Equal(t, Placement{Header: Header{Last: true, ULPCtrl: 3, MSN: 1}, Addr: 0x100, Len: 24}, pl)
	_, err = p.Place(s1, segment(Header{Tagged: true, STag: stagA, TO: 8}, 8))
	require.NoError(t, err)

	_, err = p.Place(s1, untagged(0, 1, 0, 4)) // version 1
	require.ErrorIs(t, err, KindUntaggedVersion)
	_, err = p.Place(s1, tagged(stagA, 0, 4))
	require.ErrorIs(t, err, KindTaggedVersion)

	// The default Placer rejects the draft's version-0 FPDU.
	_, err = NewPlacer(NewMemory()).Place(s1, figure5ULPDU)
	require.ErrorIs(t, err, KindUntaggedVersion)
}

func TestRegistration(t *testing.T) {
	p := fixture(t)
	require.Error(t, p.RegisterSTag(stagA, s2, 0, 8), "STag A is registered and valid")
	require.Error(t, p.RegisterSTag(0x300, s1, math.MaxUint64-6, 8), "wraps")
	require.NoError(t, p.RegisterSTag(0x301, s1, math.MaxUint64-7, 8), "ends at the last address")
	require.NoError(t, p.RegisterSTag(0x302, s1, math.MaxUint64, 0))
	require.Error(t, p.PostRecv(s1, 3, 0, 8))
	require.Error(t, p.PostRecv(s1, 0, math.MaxUint64, 2))

	p.InvalidateSTag(stagA)
	p.InvalidateSTag(0xdead) // unknown: ignored
	require.NoError(t, p.RegisterSTag(stagA, s2, 0x70000, 16), "an invalidated STag may be reused")
	_, err := p.Place(s2, tagged(stagA, 0, 16))
	require.NoError(t, err)
	assert.Equal(t, tagged(stagA, 0, 16)[TaggedHeaderLen:], p.Memory().Read(0x70000, 16))
	_, err = p.Place(s1, tagged(stagA, 0, 16))
	require.ErrorIs(t, err, KindSTagNotAssociated)

	// Both registrations of STag A are in the image, in registration order.
	img := p.Image()
	var a []Region
	for _, r := range img {
		if r.Tagged && r.STag == stagA {
			a = append(a, r)
		}
	}
	require.Len(t, a, 2)
	assert.Equal(t, baseA, a[0].Base)
	assert.Equal(t, uint64(0x70000), a[1].Base)
}

func TestImageAndDigest(t *testing.T) {
	build := func(reverse bool) *Placer {
		p := NewPlacer(NewMemory())
		regs := []func(){
			func() { require.NoError(t, p.RegisterSTag(0x30, s2, 0x3000, 32)) },
			func() { require.NoError(t, p.RegisterSTag(0x10, s1, 0x1000, 16)) },
			func() { require.NoError(t, p.PostRecv(s2, 0, 0x5000, 8)) },
			func() { require.NoError(t, p.PostRecv(s1, 2, 0x6000, 8)) },
			func() { require.NoError(t, p.PostRecv(s1, 0, 0x7000, 8)) },
		}
		if reverse {
			for i := len(regs) - 1; i >= 0; i-- {
				regs[i]()
			}
		} else {
			for _, f := range regs {
				f()
			}
		}
		_, err := p.Place(s1, tagged(0x10, 4, 8))
		require.NoError(t, err)
		_, err = p.Place(s2, untagged(0, 1, 2, 6))
		require.NoError(t, err)
		return p
	}
	a, b := build(false), build(true)
	img := a.Image()
	assert.Equal(t, img, b.Image(), "the image does not depend on registration order")
	assert.Equal(t, img.Digest(), b.Image().Digest())
	assert.Len(t, img.Digest(), 64)

	require.Len(t, img, 5)
	assert.Equal(t, []uint32{0x10, 0x30}, []uint32{img[0].STag, img[1].STag})
	assert.Equal(t, Region{Stream: s1, QN: 0, MSN: 1, Base: 0x7000, Length: 8, Data: make([]byte, 8)}, img[2])
	assert.Equal(t, Region{Stream: s1, QN: 2, MSN: 1, Base: 0x6000, Length: 8, Data: make([]byte, 8)}, img[3])
	assert.Equal(t, s2, img[4].Stream)
	want := append(make([]byte, 4), tagged(0x10, 4, 8)[TaggedHeaderLen:]...)
	assert.Equal(t, append(want, make([]byte, 4)...), img[0].Data)
	assert.Equal(t, append([]byte{0, 0}, untagged(0, 1, 2, 6)[UntaggedHeaderLen:]...), img[4].Data)

	// One octet more anywhere changes the digest.
	_, err := b.Place(s1, tagged(0x10, 15, 1))
	require.NoError(t, err)
	assert.NotEqual(t, img.Digest(), b.Image().Digest())
	assert.Equal(t, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", Image(nil).Digest(),
		"an empty image digests as empty input (SHA-256 of nothing)")
}

func TestMemory(t *testing.T) {
	m := NewMemory()
	data := make([]byte, 3*pageSize+17)
	rand.New(rand.NewSource(5)).Read(data)
	m.Write(pageSize-5, data)
	assert.Equal(t, data, m.Read(pageSize-5, len(data)))
	assert.Equal(t, make([]byte, 5), m.Read(pageSize-10, 5), "unwritten octets read as zero")
	assert.Equal(t, append(make([]byte, 5), data[:5]...), m.Read(pageSize-10, 10))
	assert.Empty(t, m.Log(), "host writes are not logged")

	m.Write(math.MaxUint64-1, []byte{1, 2, 3, 4})
	assert.Equal(t, []byte{1, 2, 3, 4}, m.Read(math.MaxUint64-1, 4), "addresses wrap")
	assert.Equal(t, []byte{3, 4}, m.Read(0, 2))

	// The log keeps a copy of each payload.
	p := NewPlacer(m)
	require.NoError(t, p.RegisterSTag(1, s1, 0x100000, 64))
	seg := tagged(1, 0, 8)
	_, err := p.Place(s1, seg)
	require.NoError(t, err)
	want := append([]byte(nil), seg[TaggedHeaderLen:]...)
	seg[TaggedHeaderLen] ^= 0xff
	assert.Equal(t, want, m.Log()[0].Data)

	m.SetLogging(false)
	_, err = p.Place(s1, tagged(1, 8, 8))
	require.NoError(t, err)
	assert.Len(t, m.Log(), 1)
	assert.Equal(t, tagged(1, 8, 8)[TaggedHeaderLen:], m.Read(0x100008, 8), "placed while not logging")
}

func TestErrorValues(t *testing.T) {
	err := error(&Error{Kind: KindTOWrap, Detail: "x"})
	assert.ErrorIs(t, err, KindTOWrap)
	assert.ErrorIs(t, err, &Error{Kind: KindTOWrap})
	assert.NotErrorIs(t, err, KindBaseBounds)
	assert.Equal(t, "ddp: TO wrap: x", err.Error())
	assert.Equal(t, "ddp: invalid MSN - MSN range", KindMSNRange.Error())
	assert.Equal(t, "Kind(99)", Kind(99).String())
	wrapped := errors.Join(errors.New("context"), err)
	assert.ErrorIs(t, wrapped, KindTOWrap)
	for k := KindShortHeader; k <= KindUntaggedVersion; k++ {
		assert.NotContains(t, k.String(), "Kind(", "every kind has an RFC name")
	}
}

// TestErrorDetail checks the text of Place's errors: the RFC 5041 name,
// then the numbers that were wrong.
func TestErrorDetail(t *testing.T) {
	for _, tc := range []struct {
		stream StreamID
		ulpdu  []byte
		want   string
	}{
		{s1, tagged(0x999, 0, 8), "ddp: invalid STag: STag 0x00000999 is not registered"},
		{s1, tagged(stagB, 0, 8), "ddp: STag not associated with DDP stream: STag 0x00000200 belongs to stream 2, not 1"},
		{s1, tagged(stagA, math.MaxUint64-10, 12), "ddp: TO wrap: TO 0xfffffffffffffff5 + 12 octets"},
		{s1, tagged(stagA, lenA-100, 101), "ddp: base or bounds violation: TO 3996 + 101 octets, buffer of 4096"},
		{s1, segment(Header{Tagged: true, Version: 2, STag: stagA}, 8), "ddp: invalid DDP version: DV 2, accepting 1"},
		{s1, untagged(3, 1, 0, 8), "ddp: invalid QN: QN 3"},
		{s1, untagged(0, 3, 0, 8), "ddp: invalid MSN - no buffer available: MSN 3 on QN 0, 2 buffers posted"},
		{s1, untagged(0, 1, 200, 57), "ddp: DDP message too long for available buffer: MO 200 + 57 octets, buffer of 256"},
	} {
		_, err := fixture(t).Place(tc.stream, tc.ulpdu)
		assert.EqualError(t, err, tc.want)
	}
}

// TestPlaceErrorsRepeated places, in a random order, segments that fail
// in different ways, many times each, on one placer (which keeps the
// errors it made last) and expects each error to be the one a new placer
// makes of the same segment: the same kind and the same message.
func TestPlaceErrorsRepeated(t *testing.T) {
	type seg struct {
		s StreamID
		b []byte
	}
	var segs []seg
	for i := range 40 {
		segs = append(segs,
			seg{s2, tagged(stagA, uint64(i), 8)},                // STag of another stream
			seg{s1, tagged(0x9000+uint32(i%5), 0, 8)},           // not registered
			seg{s1, untagged(0, 3+uint32(i%7), 0, 8)},           // no buffer posted
			seg{s2, untagged(uint32(i%3), 1+uint32(i%4), 0, 8)}, // no buffer on that stream
			seg{s1, tagged(stagA, lenA-uint64(i%3), 8+i%5)},     // beyond the buffer
		)
	}
	p := fixture(t)
	rng := rand.New(rand.NewSource(3))
	for range 2000 {
		sg := segs[rng.Intn(len(segs))]
		_, got := p.Place(sg.s, sg.b)
		_, want := fixture(t).Place(sg.s, sg.b)
		require.Error(t, want)
		require.Error(t, got)
		var ge, we *Error
		require.True(t, errors.As(got, &ge))
		require.True(t, errors.As(want, &we))
		assert.Equal(t, we.Kind, ge.Kind)
		assert.Equal(t, want.Error(), got.Error())
	}
}
