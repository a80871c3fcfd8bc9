package rules

import "github.com/slurmspec/slurmspec/compiler/machines"

func catalogTypes() []string { return machines.Default().Types() }
