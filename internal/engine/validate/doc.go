// Package validate checks a candidate file before it may replace the original, from minimum checks up to the project's tests.
package validate
