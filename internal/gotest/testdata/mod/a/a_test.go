package a

import "testing"

func TestPasses(t *testing.T) { t.Log("a line") }

func TestFails(t *testing.T) {
	t.Log("before")
	t.Error("wrong:\nsecond line")
}

func TestSkips(t *testing.T) {
	t.Log("not this")
	t.Skip("chromium is not installed:\nrun apt-get install chromium")
}

func TestParent(t *testing.T) {
	t.Run("ok", func(t *testing.T) {})
	t.Run("bad", func(t *testing.T) { t.Fatal("sub failed") })
	t.Run("skipped", func(t *testing.T) { t.Skip("no java") })
	t.Run("skipped2", func(t *testing.T) { t.Skip("no java") })
}
