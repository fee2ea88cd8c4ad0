// Package providers embeds the shipped provider definitions; the built-in provider programs live in its subpackages.
package providers
