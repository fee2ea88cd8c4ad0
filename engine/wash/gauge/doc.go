// Package gauge estimates the token footprint of always-loaded memory and decides its band (LEAN, OBESE, FULL) from fat, hysteresis, break-even and capacity walls, never from time.
package gauge
