package core

// Usage counts the tokens one model request consumed and what they cost.
type Usage struct {
	Input       int  `json:"input"`
	Output      int  `json:"output"`
	CacheRead   int  `json:"cacheRead"`
	CacheWrite  int  `json:"cacheWrite"`
	TotalTokens int  `json:"totalTokens"`
	Cost        Cost `json:"cost"`
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

// Add returns the sum of two usages, costs included.
func (u Usage) Add(v Usage) Usage {
	return Usage{
		Input:       u.Input + v.Input,
		Output:      u.Output + v.Output,
		CacheRead:   u.CacheRead + v.CacheRead,
		CacheWrite:  u.CacheWrite + v.CacheWrite,
		TotalTokens: u.TotalTokens + v.TotalTokens,
		Cost: Cost{
			Input:      u.Cost.Input + v.Cost.Input,
			Output:     u.Cost.Output + v.Cost.Output,
			CacheRead:  u.Cost.CacheRead + v.Cost.CacheRead,
			CacheWrite: u.Cost.CacheWrite + v.Cost.CacheWrite,
			Total:      u.Cost.Total + v.Cost.Total,
		},
	}
}
