package gencore

// The kind of each key (integer, time, enum, list, plugin, …).

import (
	"fmt"
	"strings"
)

func (g *generator) decideKinds() error {
	for _, p := range g.params {
		if p.kind == "" {
			p.kind = naturalKind(p)
		}
		switch p.kind {
		case "time":
			if p.timeRule == "" {
				p.timeRule = "nonneg"
			}
		case "string", "enum", "list", "plugin", "bool", "uint16", "uint32", "uint64", "long", "float", "array", "line":
		default:
			return fmt.Errorf("%s: unknown kind %q", p.name, p.kind)
		}
		if p.timeRule != "" && p.kind != "time" {
			return fmt.Errorf("%s: time_rule on a %s key", p.name, p.kind)
		}
		if p.kind == "time" && p.parserType != "S_P_STRING" {
			return fmt.Errorf("%s: time kind on a %s key", p.name, p.parserType)
		}
		if p.unknown == "" {
			p.unknown = "error"
			certain := false
			for _, v := range p.values {
				if contains(v.source, "code") || contains(v.source, "plugin") {
					certain = true
				}
			}
			if !certain || isIntKind(p.kind) {
				p.unknown = "warn"
			}
		}
	}
	return nil
}

func isIntKind(k string) bool {
	return k == "uint16" || k == "uint32" || k == "uint64" || k == "long"
}

func naturalKind(p *param) string {
	switch p.parserType {
	case "S_P_BOOLEAN":
		return "bool"
	case "S_P_UINT16":
		return "uint16"
	case "S_P_UINT32":
		return "uint32"
	case "S_P_UINT64":
		return "uint64"
	case "S_P_LONG":
		return "long"
	case "S_P_FLOAT", "S_P_DOUBLE":
		return "float"
	case "S_P_ARRAY":
		if p.status == "line" || len(p.history) > 0 && p.history[0].status == "line" {
			return "line"
		}
		return "array"
	}
	if p.timeString {
		return "time"
	}
	if len(p.values) == 0 {
		return "string"
	}
	allPlugins := true
	for _, v := range p.values {
		if v.listSemantics == "comma-list" {
			return "list"
		}
		if !strings.Contains(v.name, "/") && !(v.match == "contains" && v.substr == "none") {
			allPlugins = false
		}
	}
	if allPlugins {
		return "plugin"
	}
	return "enum"
}
