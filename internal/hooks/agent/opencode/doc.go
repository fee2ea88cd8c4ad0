// Package opencode holds prosewash's opencode plugin (prosewash.js): opencode loads JS/TS plugins, not hook commands, so the plugin calls 'prosewash hook opencode EVENT' as every other agent's hooks call their entry point.
package opencode
