package provider

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prosewash/prosewash/internal/testtool"
)

func fakeProvider(t *testing.T, io string, timeout int) Call {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		testtool.Missing(t, "python3", "python3 not found: the fake provider is a python script")
	}
	script, err := filepath.Abs("testdata/fake.py")
	if err != nil {
		t.Fatal(err)
	}
	cmd := []string{"python3", script}
	args := []string(nil)
	if io == "files" {
		args = []string{"--files", "${input}", "${output}"}
	}
	def := &Definition{ID: "custom/fake", Version: "1", IO: io, Timeout: timeout, Command: cmd,
		Operations: map[string]*Operation{"clean": {Name: "clean", Role: RoleTransform, Capability: "unicode", Regions: ScopeProse, Args: args}}}
	dir := t.TempDir()
	return Call{Def: def, Op: def.Operations["clean"], Dir: dir, Bind: Bind(def, nil, dir, "1")}
}

func request(mode string) *Request {
	return &Request{Options: map[string]string{"mode": mode}, Files: []FileRegions{
		{ID: 0, Path: "a.md", Language: "markdown", Regions: []RegionPayload{{ID: 0, Kind: "prose", Text: "hello\u200b world"}}},
	}}
}

func TestRunRoundTrip(t *testing.T) {
	for _, io := range []string{"stdio", "files"} {
		t.Run(io, func(t *testing.T) {
			reply, err := Run(context.Background(), fakeProvider(t, io, 30), request("upper"))
			if err != nil {
				t.Fatal(err)
			}
			if len(reply.Files) != 1 || *reply.Files[0].Regions[0].Text != "HELLO\u200b WORLD" {
				t.Fatalf("unexpected reply %+v", reply)
			}
		})
	}
}

func TestRunFailures(t *testing.T) {
	tests := []struct{ mode, want string }{
		{"crash", "exited with exit status 3: fake: something broke"},
		{"garbage", "malformed reply"},
		{"twodocs", "more than one JSON document"},
		{"wrongproto", `speaks protocol "other/1"`},
		{"refuse", "refused the request: no model configured"},
	}
	for _, tc := range tests {
		t.Run(tc.mode, func(t *testing.T) {
			_, err := Run(context.Background(), fakeProvider(t, "stdio", 30), request(tc.mode))
			var re *RunError
			if !errors.As(err, &re) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "custom/fake:clean") {
				t.Fatalf("got %v, want a RunError naming the provider containing %q", err, tc.want)
			}
		})
	}
}

func TestRunMissingProgram(t *testing.T) {
	c := fakeProvider(t, "stdio", 5)
	c.Def.Command = []string{"/nonexistent/provider-binary"}
	c.Bind = Bind(c.Def, nil, c.Dir, "1")
	_, err := Run(context.Background(), c, request("upper"))
	if err == nil || !strings.Contains(err.Error(), "could not run /nonexistent/provider-binary") {
		t.Fatalf("got %v", err)
	}
}

func TestRunTimeoutKillsProcessGroup(t *testing.T) {
	if _, err := exec.LookPath("pgrep"); err != nil {
		testtool.Missing(t, "pgrep", "pgrep not found: cannot check for a surviving grandchild")
	}
	c := fakeProvider(t, "stdio", 1)
	start := time.Now()
	_, err := Run(context.Background(), c, request("sleep"))
	if err == nil || !strings.Contains(err.Error(), "timed out after 1s") {
		t.Fatalf("got %v", err)
	}
	if time.Since(start) > 60*time.Second {
		t.Fatal("Run did not return after the timeout")
	}
	// The grandchild `sleep 300` must be gone with its group.
	deadline := time.Now().Add(5 * time.Second)
	for {
		out, _ := exec.Command("pgrep", "-f", "^sleep 300$").Output()
		pids := strings.Fields(string(out))
		alive := 0
		for _, p := range pids {
			pid, _ := strconv.Atoi(p)
			if ppidOf(pid) == os.Getpid() || ppidOf(pid) == 1 {
				alive++
			}
		}
		if alive == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("grandchild still running: %v", pids)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func ppidOf(pid int) int {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return -1
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	if len(f) < 2 {
		return -1
	}
	p, _ := strconv.Atoi(f[1])
	return p
}

func TestRunBoundsReply(t *testing.T) {
	c := fakeProvider(t, "stdio", 30)
	req := request("big")
	req.Options["size"] = strconv.Itoa(maxReplyMin + 1<<20)
	_, err := Run(context.Background(), c, req)
	if err == nil || !strings.Contains(err.Error(), "reply larger than") {
		t.Fatalf("got %v", err)
	}
}
