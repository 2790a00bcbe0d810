package keymap

// Bound returns the actions the canonical key (see ParseKey) is bound to,
// in Actions order; nil when it is free. The slice belongs to the map.
func (m Map) Bound(key string) []Action { return m.byKey[key] }
