package flock

import (
	"os"
	"path/filepath"
	"testing"
)

// TestTurns: a second locker is told it waits, gets the lock only once the
// first releases it, and the lock file is gone after the last unlock.
func TestTurns(t *testing.T) {
	p := filepath.Join(t.TempDir(), "site.lock")
	unlock1, err := Lock(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	waiting := make(chan bool)
	got := make(chan func() error)
	go func() {
		u, err := Lock(p, func() { waiting <- true })
		if err != nil {
			t.Error(err)
		}
		got <- u
	}()
	<-waiting // the second locker found the lock taken
	select {
	case <-got:
		t.Fatal("the second locker got the lock while the first held it")
	default:
	}
	if err := unlock1(); err != nil {
		t.Fatal(err)
	}
	unlock2 := <-got
	if _, err := os.Stat(p); err != nil {
		t.Errorf("the lock file of the second holder is missing: %v", err)
	}
	unlock1() // a second call must not remove the next holder's file
	if _, err := os.Stat(p); err != nil {
		t.Errorf("a repeated unlock removed the next holder's lock file: %v", err)
	}
	if err := unlock2(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); !os.IsNotExist(err) {
		t.Errorf("lock file left after the last unlock: %v", err)
	}
}
