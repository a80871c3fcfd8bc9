package cmdtree

import (
	"slices"
	"testing"

	"github.com/spf13/cobra"
)

func TestBoolFlagsShowingValue(t *testing.T) {
	root := &cobra.Command{Use: "tool"}
	up := &cobra.Command{Use: "up", Run: func(*cobra.Command, []string) {}}
	root.AddCommand(up)
	root.Flags().Bool("quiet", false, "print nothing")
	up.Flags().Bool("verify", false, "run the `job` mix after it")
	up.Flags().String("stack", "", "the `STACK` to update")
	got := BoolFlagsShowingValue(root)
	if want := []string{"tool up --verify: job"}; !slices.Equal(got, want) {
		t.Errorf("BoolFlagsShowingValue = %q, want %q", got, want)
	}
}
