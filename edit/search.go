package edit

import (
	"strings"

	"github.com/urlkit/urlkit"
)

// A SearchPair is one key=value pair of a search part, as HTML forms and
// most servers write them: pairs separated by "&", key and value by the
// first "=", "+" standing for a space as RFC 1630 defines within a search
// ("the plus sign is reserved as shorthand notation for a space").
//
// RFC 1630 and RFC 1738 give the search part no further structure; the
// pairs are a reading of it, and a search part that is not pairs (RFC
// 1630's "word+word" index search) reads as one pair with no "=".
type SearchPair struct {
	Key   string // decoded: escapes and "+" undone
	Value string // decoded; "" when there is no "="
	// NoEquals says the pair was written without "=" ("flag" rather
	// than "flag="); it is kept when the pair is written again.
	NoEquals bool
	raw      string // the pair as written, when it came from a URL
}

// String returns the pair as it is written in a search part: as it was
// read when Key, Value and NoEquals are unchanged, byte for byte, or else
// encoded with [urlkit.EscapeSearchWord].
func (p SearchPair) String() string {
	if p.raw != "" {
		if k, v, ne, err := decodePair(p.raw); err == nil && k == p.Key && v == p.Value && ne == p.NoEquals {
			return p.raw
		}
	}
	if p.NoEquals && p.Value == "" {
		return urlkit.EscapeSearchWord(p.Key)
	}
	return urlkit.EscapeSearchWord(p.Key) + "=" + urlkit.EscapeSearchWord(p.Value)
}

// ParseSearch reads a search part (without the "?") as key=value pairs, in
// order. An empty search gives no pairs; empty pieces between "&"s are
// dropped. An invalid escape is a *[urlkit.SyntaxError] with its offset in s.
func ParseSearch(s string) ([]SearchPair, error) {
	var out []SearchPair
	for start := 0; start <= len(s); {
		end := strings.IndexByte(s[start:], '&')
		if end < 0 {
			end = len(s)
		} else {
			end += start
		}
		if raw := s[start:end]; raw != "" {
			k, v, ne, err := decodePair(raw)
			if err != nil {
				if se, ok := err.(*urlkit.SyntaxError); ok {
					return nil, &urlkit.SyntaxError{Input: s, Offset: start + se.Offset, Component: urlkit.ComponentSearch, Err: se.Err, Detail: se.Detail}
				}
				return nil, err
			}
			out = append(out, SearchPair{Key: k, Value: v, NoEquals: ne, raw: raw})
		}
		start = end + 1
	}
	return out, nil
}

func decodePair(raw string) (key, value string, noEquals bool, err error) {
	k, v, found := strings.Cut(raw, "=")
	if key, err = urlkit.UnescapeSearch(k); err != nil {
		return "", "", false, err
	}
	if value, err = urlkit.UnescapeSearch(v); err != nil {
		if se, ok := err.(*urlkit.SyntaxError); ok {
			se.Offset += len(k) + 1
			se.Input = raw
		}
		return "", "", false, err
	}
	return key, value, !found, nil
}

// EncodeSearch writes pairs as a search part (without the "?"), joined by
// "&": each pair that came from [ParseSearch] and was not changed exactly
// as it was written, the others encoded with [urlkit.EscapeSearchWord] (a space
// as "+").
func EncodeSearch(pairs []SearchPair) string {
	var b strings.Builder
	for i, p := range pairs {
		if i > 0 {
			b.WriteByte('&')
		}
		b.WriteString(p.String())
	}
	return b.String()
}

// SearchPairs returns the URL's search part read as key=value pairs (see
// [ParseSearch]); none when it has no search part.
func SearchPairs(u urlkit.URL) ([]SearchPair, error) {
	s, _ := u.Search()
	return ParseSearch(s)
}

// SearchValue returns the decoded value of the first pair with the given
// key (compared after decoding) and whether there is one.
func SearchValue(u urlkit.URL, key string) (string, bool) {
	pairs, err := SearchPairs(u)
	if err != nil {
		return "", false
	}
	for _, p := range pairs {
		if p.Key == key {
			return p.Value, true
		}
	}
	return "", false
}

// SetSearchPairs returns u with its search part written from pairs by
// [EncodeSearch]; no pairs removes the search part. Pairs read from the
// URL and left unchanged keep their bytes.
func SetSearchPairs(u urlkit.URL, pairs []SearchPair) (urlkit.URL, error) {
	if len(pairs) == 0 {
		return Clear(u, urlkit.ComponentSearch)
	}
	return Set(u, urlkit.ComponentSearch, EncodeSearch(pairs))
}

// AddSearch returns u with the pair key=value added at the end of its
// search part; key and value are data, encoded with [urlkit.EscapeSearchWord].
// The existing search part is kept byte for byte.
func AddSearch(u urlkit.URL, key, value string) (urlkit.URL, error) {
	return AddSearchPair(u, SearchPair{Key: key, Value: value})
}

// AddSearchPair returns u with p added at the end of its search part,
// written as [SearchPair.String] writes it (a pair with NoEquals set and
// an empty value is written as its key alone). The existing search part is
// kept byte for byte.
func AddSearchPair(u urlkit.URL, p SearchPair) (urlkit.URL, error) {
	pair := p.String()
	s, ok := u.Search()
	if ok && s != "" && !strings.HasSuffix(s, "&") {
		s += "&"
	}
	return Set(u, urlkit.ComponentSearch, s+pair)
}

// DeleteSearch returns u without the pairs whose decoded key is key; the
// other pairs keep their bytes. When no pair is left, the search part is
// removed.
func DeleteSearch(u urlkit.URL, key string) (urlkit.URL, error) {
	pairs, err := SearchPairs(u)
	if err != nil {
		return urlkit.URL{}, err
	}
	kept := pairs[:0]
	for _, p := range pairs {
		if p.Key != key {
			kept = append(kept, p)
		}
	}
	if len(kept) == len(pairs) {
		return u, nil
	}
	return SetSearchPairs(u, kept)
}

// SearchValues returns the decoded values of every pair with the given key
// (compared after decoding), in order; none when there is no such pair or
// the search part does not read as pairs.
func SearchValues(u urlkit.URL, key string) []string {
	pairs, err := SearchPairs(u)
	if err != nil {
		return nil
	}
	var out []string
	for _, p := range pairs {
		if p.Key == key {
			out = append(out, p.Value)
		}
	}
	return out
}

// SetSearchValue returns u with key set to value, as net/url's
// Values.Set does in one call: the first pair with that key (compared
// after decoding) gets the value in its place, the other pairs with that
// key are removed, and when there is none the pair is added at the end.
// key and value are data, encoded with [urlkit.EscapeSearchWord]; every
// other pair keeps its bytes.
func SetSearchValue(u urlkit.URL, key, value string) (urlkit.URL, error) {
	pairs, err := SearchPairs(u)
	if err != nil {
		return urlkit.URL{}, err
	}
	kept := pairs[:0]
	found := false
	for _, p := range pairs {
		if p.Key != key {
			kept = append(kept, p)
			continue
		}
		if !found {
			found = true
			p.Value, p.NoEquals = value, false
			kept = append(kept, p)
		}
	}
	if !found {
		return AddSearch(u, key, value)
	}
	return SetSearchPairs(u, kept)
}

// FilterSearch returns u with only the pairs for which keep returns true;
// they keep their bytes and their order. When no pair is left the search
// part is removed; when every pair is kept u is returned as it is. The
// command line's --delete and --keep with search:GLOB call it with a
// pattern match on the key.
func FilterSearch(u urlkit.URL, keep func(SearchPair) bool) (urlkit.URL, error) {
	pairs, err := SearchPairs(u)
	if err != nil {
		return urlkit.URL{}, err
	}
	kept := pairs[:0]
	for _, p := range pairs {
		if keep(p) {
			kept = append(kept, p)
		}
	}
	if len(kept) == len(pairs) {
		return u, nil
	}
	return SetSearchPairs(u, kept)
}
