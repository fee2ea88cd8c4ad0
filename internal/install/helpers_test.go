package install

// Install is what install --AGENT does: PlanInstall, then Apply.
func (a Agent) Install(root, stateDir string) (Action, error) {
	c, err := a.PlanInstall(root, stateDir)
	if err != nil {
		return "", err
	}
	return c.Apply()
}

// Uninstall is what uninstall --AGENT does: PlanUninstall, then Apply.
func (a Agent) Uninstall(root, stateDir string) (Action, error) {
	c, err := a.PlanUninstall(root, stateDir)
	if err != nil {
		return "", err
	}
	return c.Apply()
}
