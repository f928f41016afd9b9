package vecgen

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// specDir is where the spec texts live: shared/spec beside the repository.
var specDir = filepath.Join("..", "..", "shared", "spec")

var space = regexp.MustCompile(`\s+`)

func normalize(s string) string { return space.ReplaceAllString(s, " ") }

func TestCoverageEveryRowCovered(t *testing.T) {
	require.NoError(t, CheckCoverage())
	for _, r := range append(append([]Requirement(nil), Requirements...), Requirements6581...) {
		assert.NotEmpty(t, r.Quote, r.ID)
		assert.Contains(t, []string{"MUST", "MUST NOT", "SHOULD", "REQUIRED"}, r.Level, r.ID)
		assert.Contains(t, r.Quote, strings.Fields(r.Level)[0], "%s: the quote holds its keyword", r.ID)
	}
}

func TestCoverageCheckFailsOnUncoveredRow(t *testing.T) {
	saved := Requirements
	defer func() { Requirements = saved }()
	Requirements = append(append([]Requirement(nil), saved...), Requirement{ID: "x", Quote: "MUST", Level: "MUST", Tags: []string{"no-such-tag"}})
	assert.ErrorContains(t, CheckCoverage(), "x (tags select no vector)")
	Requirements = append(append([]Requirement(nil), saved...), Requirement{ID: "y", Quote: "MUST", Level: "MUST"})
	assert.ErrorContains(t, CheckCoverage(), "y (no vector and no reason)")
	_, err := CoverageMarkdown()
	assert.Error(t, err)
}

// TestCoverageQuotesInSpec checks every quote against the spec texts, so
// that the map cannot cite a requirement that is not there.
func TestCoverageQuotesInSpec(t *testing.T) {
	var corpus strings.Builder
	for _, f := range []string{"rfc5044-sections-5-10.txt", "draft-ietf-rddp-mpa-01.txt"} {
		b, err := os.ReadFile(filepath.Join(specDir, f))
		require.NoError(t, err, "the spec texts are expected in shared/spec beside the repository")
		corpus.WriteString(normalize(string(b)))
	}
	text := corpus.String()
	for _, r := range Requirements {
		assert.False(t, r.Paraphrase, r.ID)
		assert.Contains(t, text, normalize(r.Quote), "%s: quote not found in the spec texts", r.ID)
	}
}

// TestCoverage6581Rows checks the RFC 6581 rows: each names its RFC, and
// every rule that the golden receiver enforces has vectors (only the IRD
// row, which it reports but does not check, has a reason instead).
func TestCoverage6581Rows(t *testing.T) {
	for _, r := range Requirements6581 {
		assert.Contains(t, r.Section, "RFC 6581", r.ID)
		if r.ID != "6581-ird" {
			assert.NotEmpty(t, VectorsFor(r.Tags), r.ID)
		}
	}
}

// TestCoverageListsEveryKeyword checks that no MUST/SHOULD sentence of
// RFC 5044 sections 5 to 8 is missing from the map, except those listed here
// as outside a receiver's wire behaviour or not normative for MPA.
func TestCoverageListsEveryKeyword(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(specDir, "rfc5044-sections-5-10.txt"))
	require.NoError(t, err)
	text := normalize(string(b))
	end := strings.Index(text, "9. Security Considerations")
	require.Positive(t, end)
	text = text[:end]
	re := regexp.MustCompile(`\b(MUST|SHOULD|REQUIRED)\b`)
	var quotes []string
	for _, r := range Requirements {
		quotes = append(quotes, normalize(r.Quote))
	}
	// Keyword sentences deliberately not rows: how a sender without EMSS
	// picks an FPDU size (sender-internal), the ULP's Private Data policy
	// (accept or reject: the Reply a Responder sends is covered by the
	// rejected-Reply vector), entering full operation after a valid
	// exchange (every vector with traffic does), and the heading-like
	// definition of the M bit (rows 7.1.1-0c/0d quote its two rules).
	skip := []string{
		"MPA SHOULD use the current MTU value to establish a likely FPDU size",
		"The Responder SHOULD return an MPA Reply Frame with the \"Reject Connection\" bit set to '1' if the validation of the Private Data is not acceptable to the ULP",
		"and the Responder SHOULD prepare to interpret any data received as FPDUs and pass any received ULPDUs to DDP",
		"the implementation SHOULD return an MPA Reply Frame with the Rejected Connection bit set to '0'",
		"the implementation SHOULD enter Full MPA/DDP Operation Phase",
		"M: This bit declares an endpoint's REQUIRED Marker usage",
	}
	for _, loc := range re.FindAllStringIndex(text, -1) {
		covered := false
		for _, q := range append(quotes, skip...) {
			i := strings.Index(text, q)
			for i >= 0 {
				if loc[0] >= i && loc[1] <= i+len(q) {
					covered = true
					break
				}
				next := strings.Index(text[i+1:], q)
				if next < 0 {
					break
				}
				i += 1 + next
			}
			if covered {
				break
			}
		}
		if !covered {
			lo, hi := max(0, loc[0]-80), min(len(text), loc[1]+80)
			t.Errorf("keyword not in the coverage map: ...%s...", text[lo:hi])
		}
	}
}
