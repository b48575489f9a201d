// JSON for the plan types. The views' JSON is the command line's business
// (cmd/urlkit/views.go).

package scheme

import "encoding/json"

// typeString returns a type code as a JSON-friendly string: "" for 0.
func typeString(t byte) string {
	if t == 0 {
		return ""
	}
	return string(rune(t))
}

// MarshalJSON writes the plan with its type code as a string ("a", "i",
// "d"), the CWD arguments, and each command's Redacted line.
func (p *FTPPlan) MarshalJSON() ([]byte, error) {
	cwd := []string{}
	lines := make([]string, len(p.Commands))
	for i, c := range p.Commands {
		if c.Verb == FTPCwd {
			cwd = append(cwd, c.Arg)
		}
		lines[i] = c.Redacted()
	}
	return json.Marshal(struct {
		Addr     string   `json:"addr"`
		CWD      []string `json:"cwd"`
		Name     string   `json:"name"`
		Type     string   `json:"type"`
		Guessed  bool     `json:"type_guessed"`
		List     bool     `json:"list"`
		Commands []string `json:"commands"`
	}{p.Addr, cwd, p.Name, typeString(p.Type), p.Guessed, p.List, lines})
}

// MarshalJSON writes each command as its line.
func (c NNTPCommand) MarshalJSON() ([]byte, error) { return json.Marshal(c.Line()) }

// MarshalJSON writes the plan with its gopher type as a one-character
// string and the request line.
func (p *GopherPlan) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Addr       string `json:"addr"`
		Type       string `json:"type"`
		Selector   string `json:"selector"`
		Search     string `json:"search,omitempty"`
		PlusString string `json:"plus,omitempty"`
		HasSearch  bool   `json:"has_search"`
		HasPlus    bool   `json:"has_plus"`
		Line       string `json:"line"`
		Reply      string `json:"reply"`
	}{p.Addr, typeString(p.Type), p.Selector, p.Search, p.PlusString, p.HasSearch, p.HasPlus, p.Line(), p.Reply})
}
