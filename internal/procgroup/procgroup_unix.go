//go:build unix

// Package procgroup starts a program as the leader of a process group of its own, so that
// ending it also ends the helper processes it started (Chromium's renderers and zygote); where
// the system has no process groups (Windows), only the program itself is ended.
package procgroup

import (
	"os/exec"
	"syscall"
)

// Own makes cmd, not yet started, the leader of a process group of its own.
func Own(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
}

// Kill ends cmd's process group (cmd started after Own).
func Kill(cmd *exec.Cmd) { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
