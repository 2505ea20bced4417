"""The build: plan, doit task creators, their actions, the compiled targets and the
nothing-changed fast path. May import every stage but the runner."""
