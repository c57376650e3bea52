package sweep

import "github.com/tcheck/tcheck/zone"

type zoneLimits = zone.Limits
