package broken

import "testing"

func TestNothing(t *testing.T) { undefined() }
