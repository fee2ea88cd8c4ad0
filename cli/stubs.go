package cli

import "errors"

var errNotYet = errors.New("not implemented yet")

func runCheck(e *env, args []string) error { return errNotYet }
