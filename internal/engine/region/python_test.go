package region

import (
	"strings"
	"testing"
)

func TestPythonComments(t *testing.T) {
	cases := []struct {
		src  string // the comment under test is the first '#' after "x = 1  " or at line 3
		kind Kind
		why  string
	}{
		{"# plain narrative", Prose, "comment"},
		{"#: sphinx attribute doc", Prose, "comment"},
		{"# see issue #42", Prose, "comment"},
		{"# café \u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645", Prose, "comment"},
		{"# hello\u200bworld", Prose, "comment"},
		{"#!not a shebang on line 3", Prose, "comment"},
		{"# coding is fun", Prose, "comment"},
		{"# noqa", Directive, "directive: # noqa"},
		{"#noqa:E501", Directive, "directive: # noqa"},
		{"# NoQA", Directive, "directive: # noqa"},
		{"# type: ignore", Directive, "directive: # type:"},
		{"# type : int", Directive, "directive: # type:"},
		{"# pragma: no cover", Directive, "directive: # pragma"},
		{"# pragma no branch", Directive, "directive: # pragma"},
		{"# pylint: disable=x", Directive, "directive: # pylint:"},
		{"# fmt: skip", Directive, "directive: # fmt:"},
		{"# isort: skip", Directive, "directive: # isort:"},
		{"# ruff: noqa", Directive, "directive: # ruff:"},
		{"# mypy: strict", Directive, "directive: # mypy:"},
		{"# pyright: ignore", Directive, "directive: # pyright:"},
		{"# TODO: later", Prose, "comment (TODO:)"},
		{"# Note: see below", Prose, "comment (Note:)"},
		{"# NOTE: x", Prose, "comment (NOTE:)"},
		{"# note: x", Prose, "comment (note:)"},
		{"# XXX: hack", Prose, "comment (XXX:)"},
		{"# Example: f(1)", Prose, "comment (Example:)"},
		{"# TODO(guido): later", Prose, "comment (TODO(...):)"},
		{"# Deprecated: use g", Prose, "comment (Deprecated:)"},
		{"# nOTE: odd case is no label", Directive, "directive: word:"},
		{"# Todo: done", Prose, "comment (Todo:)"},
		{"# Notes: x", Prose, "comment (Notes:)"},
		{"# todo: x  # type: ignore", Directive, "directive: # type:"},
		{"# https://example.com", Directive, "directive: word:"},
		{"# Note : spaced colon", Prose, "comment (Note:)"},
		{"# Result: spaced", Directive, "directive: word:"},
		{"# -*- mode: python -*-", Directive, "directive: word:"},
		{"# nosec", Directive, "directive: # nosec"},
		{"# pyre-fixme[6]", Directive, "directive: # pyre-"},
		{"# why  # noqa: E731", Directive, "directive: # noqa"},
		{"# why # TODO: x", Prose, "comment"},
		{"# why # pylint: disable=x", Directive, "directive: # pylint:"},
		// Carriers that hide a directive.
		{"# no\u200bqa", Directive, "directive: # noqa"},
		{"#\u200btype: ignore", Directive, "directive: # type:"},
		{"#\u00a0noqa", Directive, "directive: # noqa"},
		{"#\u202enoqa", Directive, "directive: # noqa"},
		{"# \U000E006Eoqa", Prose, "comment"}, // removal leaves "oqa"
		{"# \U000E006Enoqa", Directive, "directive: # noqa"},
		{"# no\u00adqa", Directive, "directive: # noqa"},
		{"# \x1b[31mnoqa", Directive, "directive: # noqa"},
		{"# \x1b[31mTODO: x", Prose, "comment"}, // the engine keeps the escape: the label would appear
		{"# \x1b[31mtype: x", Directive, "directive: # type:"},
		{"# ty\ufe0fpe: int", Directive, "directive: # type:"},
		{"#\u2028TODO: x", Prose, "comment"},
		{"# TODO\u200b: x", Prose, "comment"},
		{"# TODO: x\u200b", Prose, "comment (TODO:)"},
		{"# Note: x # no\u200bqa", Directive, "directive: # noqa"},
	}
	for _, c := range cases {
		src := "import os\n\nx = 1  " + c.src + "\ny = 2\n"
		r := kindAt(t, "t.py", src, c.src)
		if r.Kind != c.kind || r.Why != c.why {
			t.Errorf("%q: got %s %q, want %s %q", c.src, r.Kind, r.Why, c.kind, c.why)
		}
		if start := strings.Index(src, c.src); r.Start != start || r.End != start+len(c.src) {
			t.Errorf("%q: region %d-%d, want %d-%d", c.src, r.Start, r.End, start, start+len(c.src))
		}
	}
}

func TestPythonHeaderDirectives(t *testing.T) {
	cases := []struct {
		src, needle string
		kind        Kind
		why         string
	}{
		{"#!/usr/bin/python\n", "#!", Directive, "directive: shebang"},
		{"#\u200b!/usr/bin/python\n", "#", Directive, "directive: shebang"},
		{"\ufeff#!/usr/bin/python\n", "#!", Directive, "directive: shebang"},
		{"# coding=latin-1\n", "#", Directive, "directive: coding cookie"},
		{"#!/bin/sh\n# vim: fileencoding=utf-8\n", "# vim", Directive, "directive: coding cookie"},
		{"x = 1\n# This file's coding=utf8 banner\n", "# This", Directive, "directive: coding cookie"},
		{"\n\n# This file's coding=utf8 banner on line 3\n", "# This", Prose, "comment"},
		{"x = 1  # This file's coding=utf8\n", "# This", Prose, "comment"},
		{"\f # coding: utf-8\n", "#", Directive, "directive: coding cookie"},
		{"x\n#!line two\n", "#!", Prose, "comment"},
		{"#!\r# second line after CR\r", "# second", Prose, "comment"},
		{"#!x\r# -*- coding: utf-8 -*-\r", "# -*-", Directive, "directive: coding cookie"},
	}
	for _, c := range cases {
		r := kindAt(t, "t.py", c.src, c.needle)
		if r.Kind != c.kind || r.Why != c.why {
			t.Errorf("%q at %q: got %s %q, want %s %q", c.src, c.needle, r.Kind, r.Why, c.kind, c.why)
		}
	}
}

func TestPythonPrefixes(t *testing.T) {
	cases := []struct {
		run     string
		ok, f   bool
		rawFlag bool
	}{
		{"r", true, false, true}, {"u", true, false, false}, {"b", true, false, false},
		{"f", true, true, false}, {"t", true, true, false}, {"F", true, true, false},
		{"rb", true, false, true}, {"BR", true, false, true}, {"Rb", true, false, true},
		{"fr", true, true, true}, {"rF", true, true, true}, {"tr", true, true, true}, {"RT", true, true, true},
		{"ur", false, false, false}, {"ru", false, false, false}, {"bu", false, false, false},
		{"bf", false, false, false}, {"ff", false, false, false}, {"rr", false, false, false},
		{"abr", false, false, false}, {"x", false, false, false}, {"", false, false, false},
		{"ft", false, false, false}, {"é", false, false, false},
	}
	for _, c := range cases {
		pf, ok := parsePyPrefix([]byte(c.run))
		if ok != c.ok || (ok && (pf.f != c.f || pf.raw != c.rawFlag)) {
			t.Errorf("parsePyPrefix(%q) = %+v, %v; want f=%v raw=%v ok=%v", c.run, pf, ok, c.f, c.rawFlag, c.ok)
		}
	}
}

func TestPythonStringEnds(t *testing.T) {
	cases := []struct {
		src string // a string literal, possibly followed by more text
		lit string // the expected literal, or "" when it never ends
	}{
		{`'a' + x`, `'a'`},
		{`"a\"b" x`, `"a\"b"`},
		{`r'\'' x`, `r'\''`},
		{`r"\\" x`, `r"\\"`},
		{`'''a'b''c''' x`, `'''a'b''c'''`},
		{"'a\\\nb' x", "'a\\\nb'"},
		{"'a\\\r\nb' x", "'a\\\r\nb'"},
		{"'a\nb'", ""},
		{"'a\rb'", ""},
		{`'''never`, ""},
		{`'ends with backslash\`, ""},
		{`f'{x}' y`, `f'{x}'`},
		{`f'{x!r:>{w}}' y`, `f'{x!r:>{w}}'`},
		{`f'{{}}' y`, `f'{{}}'`},
		{`f'}' y`, ""},
		{`f'{x' y`, ""},
		{`f"{"a"}" y`, `f"{"a"}"`},
		{`f"{f"{f"{1}"}"}" y`, `f"{f"{f"{1}"}"}"`},
		{`f"{x:{"}"}}" y`, `f"{x:{"}"}}"`},
		{`f'{x:#x}' # c`, `f'{x:#x}'`},
		{"f'''{x\n# c '''\n}''' y", "f'''{x\n# c '''\n}'''"},
		{"f'{\n1}' y", "f'{\n1}'"},
		{"f'{x:\n}'", ""},
		{`f'\N{DASH}' y`, `f'\N{DASH}'`},
		{`rf'\N{x}' y`, `rf'\N{x}'`},
		{`f'\{x}' y`, `f'\{x}'`},
		{`f'{d["k"]}' y`, `f'{d["k"]}'`},
		{`f'{(lambda: 1)()}' y`, `f'{(lambda: 1)()}'`},
		{`f'{x)}'`, ""},
		{`f'{x:"}' y`, `f'{x:"}'`},
		{`f'{x:'}' y`, ""},
		{`t'{x}' y`, `t'{x}'`},
		{`f'{rb"x"}' y`, `f'{rb"x"}'`},
		{`f'{ab"x"}' y`, `f'{ab"x"}'`},
		{`f'{f'{1:{2}}'}' y`, `f'{f'{1:{2}}'}'`},
		{`f'{1:{2:{3}}}' y`, `f'{1:{2:{3}}}'`},
	}
	for _, c := range cases {
		src := "v = " + c.src + "\n# tail comment\n"
		m, err := classifyPython([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		r := m.At(4)
		if c.lit == "" {
			if r.Why != "unterminated string" || r.End != len(src) {
				t.Errorf("%q: got %d-%d %s %q, want unterminated to the end", c.src, r.Start, r.End, r.Kind, r.Why)
			}
			continue
		}
		if got := src[r.Start:r.End]; r.Kind != Runtime || got != c.lit {
			t.Errorf("%q: got %s %q, want runtime %q", c.src, r.Kind, got, c.lit)
		}
		tail := m.At(strings.Index(src, "# tail"))
		if tail.Kind != Prose {
			t.Errorf("%q: the comment after the string is %s %q", c.src, tail.Kind, tail.Why)
		}
	}
}

func TestPythonNestingLimit(t *testing.T) {
	deep := "x = " + strings.Repeat("f'{", 2000) + "1" + strings.Repeat("}'", 2000) + "  # tail\n"
	m, err := classifyPython([]byte(deep))
	if err != nil {
		t.Fatal(err)
	}
	if r := m.At(len(deep) - 3); r.Kind != Runtime {
		t.Errorf("beyond the nesting limit the rest should be runtime, got %s", r.Kind)
	}
}

func TestPythonDocstringLabels(t *testing.T) {
	src := "'''module'''\nclass A(B):\n    \"doc\"\n    x = 'not doc'\n    def f(\n        a,\n    ) -> 'T':\n        # comment\n        '''doc'''\n"
	m, err := classifyPython([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for needle, why := range map[string]string{"'''module'''": "docstring", `"doc"`: "docstring", "'not doc'": "string literal", "'T'": "string literal", "'''doc'''": "docstring"} {
		r := m.At(strings.Index(src, needle))
		if r.Why != why || r.Kind != Runtime {
			t.Errorf("%s: got %s %q, want runtime %q", needle, r.Kind, r.Why, why)
		}
	}
}
