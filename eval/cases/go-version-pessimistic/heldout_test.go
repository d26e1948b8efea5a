// Held-out test of the go-version case (never shown to the loop): a pessimistic constraint
// ("~> 1.2") is a floor as well as a ceiling; a version below it never satisfies it.
package version

import "testing"

func TestEvalHeldoutPessimisticFloor(t *testing.T) {
	cases := []struct {
		constraint, version string
		want                bool
	}{
		{"~> 1.2", "1.2", true},
		{"~> 1.2", "1.9.1", true},
		{"~> 1.2", "2.0", false},
		{"~> 1.2", "1.1.5", false},
		{"~> 1.2", "1.1", false},
		{"~> 1.2", "1.0.9", false},
		{"~> 1.2.3", "1.2.2", false},
		{"~> 1.2.3", "1.2.3", true},
		{"~> 1.4.0", "1.4.0.5", true},
		{"~> 2.1.0-beta", "2.1.0-alpha", false},
		{"~> 2.1.0-beta", "2.1.0-rc.1", true},
	}
	for _, tc := range cases {
		c, err := NewConstraint(tc.constraint)
		if err != nil {
			t.Fatalf("constraint %q: %v", tc.constraint, err)
		}
		got := c.Check(Must(NewVersion(tc.version)))
		if got != tc.want {
			t.Errorf("%q satisfies %q: got %v, want %v", tc.version, tc.constraint, got, tc.want)
		}
	}
}
