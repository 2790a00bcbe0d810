package core

// Usage counts the tokens one model request consumed and what they cost.
type Usage struct {
	Input      int `json:"input"`
	Output     int `json:"output"`
	CacheRead  int `json:"cacheRead"`
	CacheWrite int `json:"cacheWrite"`
	// Reasoning counts the output tokens spent thinking, where the API
	// reports them (pi 0.87); nil where it does not. They are part of
	// Output.
	Reasoning   *int `json:"reasoning,omitempty"`
	TotalTokens int  `json:"totalTokens"`
	Cost        Cost `json:"cost"`
	// CacheWrite1h counts Anthropic's one-hour cache writes, part of
	// CacheWrite (pi 0.87); nil for other APIs.
	CacheWrite1h *int `json:"cacheWrite1h,omitempty"`
}

// Cost is a usage priced in US dollars.
type Cost struct {
	Input      float64 `json:"input"`
	Output     float64 `json:"output"`
	CacheRead  float64 `json:"cacheRead"`
	CacheWrite float64 `json:"cacheWrite"`
	Total      float64 `json:"total"`
}

// Price is a model's cost in US dollars per million tokens.
type Price struct {
	Input      float64 `json:"input"`
	Output     float64 `json:"output"`
	CacheRead  float64 `json:"cacheRead"`
	CacheWrite float64 `json:"cacheWrite"`
}

// Priced returns u with TotalTokens summed and Cost computed from p.
func (u Usage) Priced(p Price) Usage {
	u.TotalTokens = u.Input + u.Output + u.CacheRead + u.CacheWrite
	const perToken = 1.0 / 1e6
	u.Cost = Cost{
		Input:      float64(u.Input) * p.Input * perToken,
		Output:     float64(u.Output) * p.Output * perToken,
		CacheRead:  float64(u.CacheRead) * p.CacheRead * perToken,
		CacheWrite: float64(u.CacheWrite) * p.CacheWrite * perToken,
	}
	u.Cost.Total = u.Cost.Input + u.Cost.Output + u.Cost.CacheRead + u.Cost.CacheWrite
	return u
}

// Add returns the sum of two usages, costs included; an optional count
// is kept when either has it.
func (u Usage) Add(v Usage) Usage {
	return Usage{
		Reasoning:    addOptional(u.Reasoning, v.Reasoning),
		CacheWrite1h: addOptional(u.CacheWrite1h, v.CacheWrite1h),
		Input:        u.Input + v.Input,
		Output:       u.Output + v.Output,
		CacheRead:    u.CacheRead + v.CacheRead,
		CacheWrite:   u.CacheWrite + v.CacheWrite,
		TotalTokens:  u.TotalTokens + v.TotalTokens,
		Cost: Cost{
			Input:      u.Cost.Input + v.Cost.Input,
			Output:     u.Cost.Output + v.Cost.Output,
			CacheRead:  u.Cost.CacheRead + v.Cost.CacheRead,
			CacheWrite: u.Cost.CacheWrite + v.Cost.CacheWrite,
			Total:      u.Cost.Total + v.Cost.Total,
		},
	}
}

// addOptional sums two optional counts: nil when both are nil.
func addOptional(a, b *int) *int {
	if a == nil && b == nil {
		return nil
	}
	n := 0
	if a != nil {
		n += *a
	}
	if b != nil {
		n += *b
	}
	return &n
}

// IsZero reports whether u counts nothing and costs nothing.
func (u Usage) IsZero() bool {
	return u.Input == 0 && u.Output == 0 && u.CacheRead == 0 && u.CacheWrite == 0 && u.TotalTokens == 0 &&
		u.Cost == (Cost{}) && (u.Reasoning == nil || *u.Reasoning == 0) && (u.CacheWrite1h == nil || *u.CacheWrite1h == 0)
}
