package ddp

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A per-stream version (as MPA negotiates it) overrides Placer.Version for
// that stream only.
func TestSetVersionPerStream(t *testing.T) {
	p := NewPlacer(NewMemory())
	require.NoError(t, p.RegisterSTag(1, 0, 0x1000, 100))
	require.NoError(t, p.RegisterSTag(2, 1, 0x2000, 100))
	p.SetVersion(1, VersionRDMC)
	seg := func(stag uint32, v uint8) []byte {
		return append(Header{Tagged: true, Version: v, STag: stag}.AppendTo(nil), 1, 2, 3)
	}
	_, err := p.Place(0, seg(1, VersionIETF))
	assert.NoError(t, err)
	_, err = p.Place(0, seg(1, VersionRDMC))
	assert.ErrorIs(t, err, KindTaggedVersion)
	_, err = p.Place(1, seg(2, VersionRDMC))
	assert.NoError(t, err)
	_, err = p.Place(1, seg(2, VersionIETF))
	assert.ErrorIs(t, err, KindTaggedVersion)
}
