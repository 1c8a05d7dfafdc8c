/**
 * A bad rule is a ManifestError naming the file and the rule's line (parseManifest reports what
 * compileRules finds, rule_manifest.ts).
 */

import { type ManifestErrorCase, testManifestErrors } from "./test_util.ts";

const errorCases: ManifestErrorCase[] = [
  [
    "unknown state",
    "id: demo\nrules:\n  - id: x\n    state: sleeping\n    any: [a]\n",
    4,
    /rules\[0\]\.state/,
  ],
  [
    "wrong type",
    "id: demo\nrules:\n  - id: x\n    state: idle\n    any: yes\n",
    5,
    /rules\[0\]\.any/,
  ],
  [
    "kind without blocked",
    "id: demo\nrules:\n  - id: x\n    state: idle\n    kind: auth\n    any: [a]\n",
    5,
    /kind auth is not one of state idle \(only blocked and error have kinds\)/,
  ],
  [
    "an error kind on a blocked rule",
    "id: demo\nrules:\n  - id: x\n    state: blocked\n    kind: quota\n    any: [a]\n",
    5,
    /kind quota is not one of state blocked \(permission, question, auth\)/,
  ],
  [
    "a kinds key of another state",
    "id: demo\nrules:\n  - id: x\n    state: error\n    kinds:\n      question: [a]\n    any: [a]\n",
    6,
    /kind question is not one of state error/,
  ],
  [
    "an unknown colour",
    "id: demo\nrules:\n  - id: x\n    state: error\n    cells:\n      - match: a\n        fg: teal\n",
    7,
    /Unknown colour "teal" \(a name: red, yellow/,
  ],
  [
    "a palette index out of range",
    "id: demo\nrules:\n  - id: x\n    state: error\n    cells: [{ match: a, fg: 300 }]\n",
    5,
    /Palette index 300 is not 0–255/,
  ],
  [
    "cells on the title",
    "id: demo\nrules:\n  - id: x\n    state: error\n    region: title\n    cells: [{ match: a, fg: red }]\n",
    6,
    /cells need screen rows/,
  ],
  [
    "a bad cell pattern",
    "id: demo\nrules:\n  - id: x\n    state: error\n    cells:\n      - match: 'a(b)'\n        fg: red\n",
    6,
    /cells match "a\(b\)": a locator has no group or alternation \(\(\); read the message with a msg pattern/,
  ],
  [
    "a quantifier in a cell locator",
    "id: demo\nrules:\n  - id: x\n    state: error\n    cells:\n      - match: 'a+'\n        fg: red\n",
    6,
    /a locator has no quantifier \(\+\)/,
  ],
  ["no pattern", "id: demo\nrules:\n  - id: x\n    state: idle\n", 3, /needs at least one pattern/],
  [
    "duplicate id",
    "id: demo\nrules:\n  - id: x\n    state: idle\n    any: [a]\n  - id: x\n    state: idle\n    any: [b]\n",
    6,
    /Duplicate rule id/,
  ],
  [
    "bad region",
    "id: demo\nrules:\n  - id: x\n    state: idle\n    region: { bottom: 0 }\n    any: [a]\n",
    5,
    /region/,
  ],
];

testManifestErrors("rules", errorCases);
