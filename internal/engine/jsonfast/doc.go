// Package jsonfast reads compact JSON into known Go types without encoding/json's
// reflection, which sets up every type again in each short-lived process (a hook's whole
// start-up budget is a few milliseconds). A Reader only ever answers where it is sure
// encoding/json would answer the same; anything else is left to encoding/json.
package jsonfast
