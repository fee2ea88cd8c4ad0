// Package carrier holds the engine-side vocabulary of invisible-Unicode carriers: profiles, findings and actions; the stripping itself lives in a provider.
package carrier
