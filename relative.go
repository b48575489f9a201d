package urlkit

import "github.com/urlkit/urlkit/internal/resolve"

// Relative returns the shortest partial form of target that [Resolve]
// expands back to target in the context of base under the same mode: the
// role of libwww's HTRelative. The forms tried, shortest first, are
//
//   - the empty reference and "#fragment", when target is base's document;
//   - "?search#fragment";
//   - a path relative to base's directory, with the fewest "../" (and the
//     next few ancestors, for when a mode's ".." cannot climb there);
//   - "/path" and "//host/path" (the suffixes of target after its
//     authority and after its scheme), and in [ModeRFC1630] each suffix
//     that the slash-count rule joins to the right part of base, such as
//     "/g" placed below a "//" section;
//   - target itself, which is what remains when the schemes differ
//     (RFC 1630: "If the scheme parts are different, the whole absolute
//     URI must be given"), taken as it was read: a target read by the
//     generic syntax because it breaks its scheme's rules ("ftp:this")
//     is given whole too, when it resolves to itself.
//
// Each candidate is checked by resolving it, so the result always
// resolves to target. base and target need only be generic URLs (see
// [ParseGeneric]); a candidate whose resolution comes with a
// *[ResolveWarning] counts when its text is target's. When none does (in [ModeRFC3986] a target with dot
// segments cannot be the result of any resolution), the error is a
// *[ResolveError] wrapping [ErrUnreachable].
//
// Relative takes time linear in the length of base and target: the
// candidates are a fixed number, found with one pass over each text, plus
// in [ModeRFC1630] one per slash-run length that the rule can use, each of
// which is checked against target before it is resolved.
func Relative(base, target URL, mode Mode) (URL, error) {
	if !mode.valid() {
		return URL{}, &ResolveError{Op: "relative", Mode: mode, Base: base.s, Ref: target.s, Err: ErrUnknownMode}
	}
	var B, T resolve.Parts
	splitRefInto(&base, &B)
	splitRefInto(&target, &T)
	var arr [24]string
	cands := resolve.Candidates(arr[:0], &B, &T, resolve.Mode(mode))
	for i, c := range cands {
		if i > 0 && c == cands[i-1] {
			continue
		}
		ref, err := parseRefAs(c, (base.flags|target.flags)&extSyntax)
		if c == target.s {
			// The target itself, read as the caller read it (by the
			// generic syntax, perhaps), not again by its scheme's rules.
			ref, err = target, nil
		}
		if err != nil || (c != target.s && ref.IsAbsolute()) {
			continue
		}
		r, err := Resolve(base, ref, mode)
		if (err == nil || IsResolveWarning(err)) && r.s == target.s {
			return ref, nil
		}
	}
	return URL{}, &ResolveError{Op: "relative", Mode: mode, Base: base.s, Ref: target.s, Part: "target", Err: ErrUnreachable}
}

// RelativeString parses base and target and returns [Relative]'s partial
// form of target. Each input need only be a generic URL, as for
// [ResolveString]: an input that breaks its scheme's own rules gives the
// result with a *[ResolveWarning] listing them, and one that is not even a
// generic URL is a *[ResolveError] whose Part ("base" or "target") says
// which it is.
func RelativeString(base, target string, mode Mode) (URL, error) {
	return RelativeStringWith(base, target, mode, ParseRef)
}

// RelativeStringWith is [RelativeString] with base and target read by
// parse, as [ResolveStringWith] reads its inputs.
func RelativeStringWith(base, target string, mode Mode, parse func(string) (URL, error)) (URL, error) {
	var findings []SchemeFinding
	b, err := parseInput(base, "base", parse, &findings)
	if err != nil {
		return URL{}, &ResolveError{Op: "relative", Mode: mode, Base: base, Ref: target, Part: "base", Err: err}
	}
	t, err := parseInput(target, "target", parse, &findings)
	if err != nil {
		return URL{}, &ResolveError{Op: "relative", Mode: mode, Base: base, Ref: target, Part: "target", Err: err}
	}
	r, err := Relative(b, t, mode)
	if err == nil && findings != nil {
		return r, &ResolveWarning{Op: "relative", Mode: mode, Base: base, Ref: target, Result: r.s, Findings: findings}
	}
	return r, err
}
