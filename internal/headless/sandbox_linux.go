//go:build linux

package headless

import (
	"os/exec"
	"syscall"
)

// userNamespaces says whether this process can make a user namespace: it starts a program
// (true) in a new one, which is what Chromium's sandbox does, so every reason it could not
// (sysctls, AppArmor, a container's seccomp profile) gives the same answer.
func userNamespaces() bool {
	path, err := exec.LookPath("true")
	if err != nil {
		return false
	}
	cmd := exec.Command(path)
	cmd.SysProcAttr = &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWUSER}
	return cmd.Run() == nil
}
