package main

import "time"

// waitText renders a retry's wait for a person: whole seconds from 10 s
// ("20s"), tenths below ("1.5s"), milliseconds under a second ("250ms").
func waitText(d time.Duration) string {
	switch {
	case d >= 10*time.Second:
		return d.Round(time.Second).String()
	case d >= time.Second:
		return d.Round(100 * time.Millisecond).String()
	}
	return d.Round(time.Millisecond).String()
}
