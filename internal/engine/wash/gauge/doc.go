// Package gauge estimates the token footprint of always-loaded memory and decides its band (LEAN, OBESE, FULL) from fat, hysteresis, break-even and capacity walls, never from time.
//
// # Estimator
//
// [Estimate] is a linear model over character classes fitted against a real BPE tokenizer;
// [Counter] computes the same classes over a text fed in pieces (the streamed reading of a file
// too large to hold). The measured error, per language too, is in internal/engine/wash/ESTIMATOR.md.
//
// # Bands
//
// Fat is what the Quick cutter would remove. It arms OBESE at Config.FatArmTokens and
// disarms only below Config.FatDisarmTokens (a Schmitt trigger, so a store hovering near one
// line does not flap). Armed fat becomes FULL when one full semantic pass pays for itself:
// carrying the fat for Config.HorizonSessions sessions costs more than the run
// (Config.RunCostMultiplier reads of the store); the verdict carries the carry per session,
// the run cost and the break-even in sessions. An economic FULL latches until the store is lean
// again. A capacity wall (footprint share of the context window, memory index bytes or lines)
// forces FULL on its own: with armed fat the advice is to wash first, without it to split or
// externalize, since washing cannot remove muscle. Sessions are counted, never timed.
//
// [Band] is pure; its [State] is JSON for the caller to persist. [Recheck] compares the last
// snapshot's file sizes by stat alone, for the Stop hook.
package gauge
