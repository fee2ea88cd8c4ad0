// Package judge finds what only a judgement pass can cut from always-loaded memory (superseded facts, stale entries, a load over its platform's budget), writes the brief an outside judge works from, and turns a local model's answer into a plan.
//
// Nothing here decides a cut: the findings are candidates that a judge adjudicates one by
// one (keep or cut, with a reason), and every plan still passes the fidelity gate and the
// lane's transaction (internal/engine/wash/lane) before a byte changes.
package judge
