//go:build linux

package webdriver

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// process is a program this package started in a process group of its own, so that stopping it
// also ends the children it started (Firefox's content processes, MiniBrowser and its web
// processes). Its output is kept, the last few kilobytes, for error messages.
type process struct {
	name string
	cmd  *exec.Cmd
	out  *tail
	once sync.Once
}

// startProcess starts path with args and env (added to this process's environment). onLine, when
// not nil, sees each line of its standard error and output as it comes.
func startProcess(path string, args, env []string, onLine func(string), extra ...*os.File) (*process, error) {
	cmd := exec.Command(path, args...)
	cmd.Env = append(os.Environ(), env...)
	out := &tail{onLine: onLine}
	cmd.Stdout, cmd.Stderr = out, out
	cmd.ExtraFiles = extra
	// Its own process group, so stop reaches its children; and SIGKILL if this test process dies.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	// Children that left the group may still hold the output pipe: do not wait for them forever.
	cmd.WaitDelay = 2 * time.Second
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", path, err)
	}
	return &process{name: path, cmd: cmd, out: out}, nil
}

// exited reports whether the process has ended (it is then a zombie until stop reaps it).
func (p *process) exited() bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(p.cmd.Process.Pid) + "/stat")
	if err != nil {
		return true
	}
	// The state follows the command name in parentheses, which may itself hold ") ".
	i := bytes.LastIndexByte(b, ')')
	if i < 0 || i+2 >= len(b) {
		return true
	}
	return b[i+2] == 'Z' || b[i+2] == 'X'
}

// stop sends sig (0: none) to the process, gives it grace to exit, then kills its whole group
// and reaps it. The group is killed before the process is reaped, so its id cannot have been
// given to anyone else. It is safe to call more than once.
func (p *process) stop(sig syscall.Signal, grace time.Duration) {
	p.once.Do(func() {
		if sig != 0 && !p.exited() {
			_ = p.cmd.Process.Signal(sig)
		}
		for deadline := time.Now().Add(grace); !p.exited() && time.Now().Before(deadline); {
			time.Sleep(20 * time.Millisecond)
		}
		_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
		_ = p.cmd.Wait()
	})
}

// output is the end of what the process printed, for error messages.
func (p *process) output() string { return p.out.String() }

// tail keeps the last tailSize bytes written to it and hands complete lines to onLine.
type tail struct {
	mu     sync.Mutex
	buf    []byte
	line   []byte
	onLine func(string)
}

const tailSize = 8 << 10

func (w *tail) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, b...)
	if len(w.buf) > tailSize {
		w.buf = append(w.buf[:0], w.buf[len(w.buf)-tailSize:]...)
	}
	if w.onLine != nil {
		w.line = append(w.line, b...)
		for {
			i := bytes.IndexByte(w.line, '\n')
			if i < 0 {
				break
			}
			w.onLine(strings.TrimRight(string(w.line[:i]), "\r"))
			w.line = w.line[i+1:]
		}
		if len(w.line) > tailSize {
			w.line = w.line[:0]
		}
	}
	return len(b), nil
}

func (w *tail) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return strings.TrimSpace(string(w.buf))
}
