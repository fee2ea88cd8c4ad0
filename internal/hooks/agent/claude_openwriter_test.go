//go:build unix

package agent

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/prosewash/prosewash/internal/engine/approval"
	"github.com/prosewash/prosewash/internal/testkit/hooktest"
	"github.com/prosewash/prosewash/internal/testtool"
)

// In approved automatic mode, a file the agent wrote that a background job
// still holds open for writing (a ">>" logger) is not replaced at "stop": the
// job's later lines would go into a file nobody sees. The hook says so and
// every line the job writes is in the file ('prosewash clean --session'
// names the writer).
func TestClaudeStopLeavesAFileOpenForWriting(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		testtool.Missing(t, "sh", "sh not found")
	}
	bin := hooktest.Bin(t)
	f := newFixture(t)
	f.write(".prosewash.toml", "[clean]\nmode = \"automatic\"\n")
	p := f.write("log.md", claudeDirty)
	r := f.runner(bin)
	f.run(r, "post-tool-use", claudeWrite(f, p))
	claudeApprove(t, f, bin, approval.Automatic)

	job := exec.Command("sh", "-c", `exec 3>>"$1"; sleep 1; echo "job line" >&3`, "sh", p)
	if err := job.Start(); err != nil {
		t.Fatal(err)
	}
	defer job.Wait()
	time.Sleep(300 * time.Millisecond) // the job has the file open and sleeps
	out := f.run(r, "stop", claudeStop(f, false))
	if err := job.Wait(); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(p)
	if !strings.HasSuffix(string(got), "job line\n") {
		t.Fatalf("the job's line was lost: %q", got)
	}
	if string(got) != claudeDirty+"job line\n" {
		t.Fatalf("log.md = %q, want it left as the job wrote it", got)
	}
	if out == nil || !strings.Contains(out.SystemMessage, "1 refused") || strings.Contains(out.SystemMessage, "cleaned 1 file") {
		t.Fatalf("Stop output %+v, want the refusal said", out)
	}
}

// A job holding the file only for reading can still reopen its descriptor
// for appending through /proc/self/fd/N once the swap is over, into the
// replaced file. Nobody watches the end of a turn, so "stop" leaves a file
// any other process holds at all, and the job's line is in the file.
func TestClaudeStopLeavesAFileAReaderCouldReopen(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		testtool.Missing(t, "sh", "sh not found")
	}
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		testtool.Missing(t, "procfs", "no /proc/self/fd to reopen a descriptor through")
	}
	bin := hooktest.Bin(t)
	f := newFixture(t)
	f.write(".prosewash.toml", "[clean]\nmode = \"automatic\"\n")
	p := f.write("log.md", claudeDirty)
	r := f.runner(bin)
	f.run(r, "post-tool-use", claudeWrite(f, p))
	claudeApprove(t, f, bin, approval.Automatic)

	job := exec.Command("sh", "-c", `exec 3<"$1"; sleep 1; echo "job line" >>/proc/self/fd/3`, "sh", p)
	if err := job.Start(); err != nil {
		t.Fatal(err)
	}
	defer job.Wait()
	time.Sleep(300 * time.Millisecond) // the job has the file open for reading and sleeps
	out := f.run(r, "stop", claudeStop(f, false))
	if err := job.Wait(); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(p); string(got) != claudeDirty+"job line\n" {
		t.Fatalf("log.md = %q, want it left as the job wrote it", got)
	}
	if out == nil || !strings.Contains(out.SystemMessage, "1 refused") || strings.Contains(out.SystemMessage, "cleaned 1 file") {
		t.Fatalf("Stop output %+v, want the refusal said", out)
	}
}
