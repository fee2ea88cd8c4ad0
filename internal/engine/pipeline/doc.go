// Package pipeline loads pipeline definitions and orders and validates their stages.
package pipeline
