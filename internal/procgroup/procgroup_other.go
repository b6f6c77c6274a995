//go:build !unix

package procgroup

import "os/exec"

// Own does nothing where the system has no process groups.
func Own(*exec.Cmd) {}

// Kill ends cmd.
func Kill(cmd *exec.Cmd) { _ = cmd.Process.Kill() }
