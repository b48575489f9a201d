package gateway

import (
	"bytes"
	"net/http"
	"path"
	"strings"
	"unicode/utf8"
)

// byExtension maps file name suffixes to media types. It is a fixed table,
// not the host's mime.types, so the gateway answers the same everywhere.
// Text types carry no charset here: contentType adds the one the bytes
// show.
var byExtension = map[string]string{
	".txt": "text/plain", ".text": "text/plain",
	".md": "text/plain", ".c": "text/plain",
	".h": "text/plain", ".go": "text/plain",
	".readme": "text/plain", ".asc": "text/plain",
	".html": "text/html", ".htm": "text/html",
	".css": "text/css", ".csv": "text/csv", ".xml": "text/xml",
	".json": "application/json", ".pdf": "application/pdf",
	".ps": "application/postscript", ".eps": "application/postscript",
	".gif": "image/gif", ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg",
	".webp": "image/webp", ".bmp": "image/bmp", ".tif": "image/tiff", ".tiff": "image/tiff",
	".ico": "image/x-icon", ".svg": "image/svg+xml",
	".wav": "audio/wav", ".au": "audio/basic", ".snd": "audio/basic", ".mp3": "audio/mpeg",
	".ogg": "audio/ogg", ".flac": "audio/flac", ".mid": "audio/midi",
	".mp4": "video/mp4", ".mpg": "video/mpeg", ".mpeg": "video/mpeg", ".webm": "video/webm",
	".avi": "video/x-msvideo",
	".zip": "application/zip", ".gz": "application/gzip", ".tgz": "application/gzip",
	".bz2": "application/x-bzip2", ".xz": "application/x-xz", ".tar": "application/x-tar",
	".z": "application/x-compress", ".hqx": "application/mac-binhex40",
	".uu": "text/x-uuencode", ".uue": "text/x-uuencode",
	".rtf": "application/rtf", ".doc": "application/msword",
}

const octetStream = "application/octet-stream"

// Types a resource is sent with: the type a handler chose, completed by
// what its first bytes show (contentType).
const (
	textPlain = "text/plain"
	sniffType = "" // no type from the name: sniff the first bytes
)

// contentType is the Content-Type a resource is sent with, given the type
// t its name or item type gave (sniffType: none) and its first bytes (head;
// whole reports that head is the whole resource).
//
// A resource without a type is sniffed by net/http.DetectContentType
// (the WHATWG MIME Sniffing algorithm), so that an extensionless README is
// shown as text rather than downloaded. A text type gets the charset its
// bytes show: a byte order mark's (UTF-8, UTF-16); "utf-8" for bytes that
// are valid UTF-8 (ASCII included; a character cut at the end of head,
// when head is not the whole resource, does not count); otherwise
// "windows-1252", the single-byte fallback: ISO-8859-1 text reads the same
// in it (browsers decode the "iso-8859-1" label as windows-1252 anyway,
// WHATWG Encoding 4.2), and 0x80-0x9F become the characters Windows put
// there. The bytes are sent unchanged. HTML and XML, which can declare
// their own encoding, get "utf-8" when valid and no charset otherwise.
func contentType(t string, head []byte, whole bool) string {
	if t == sniffType {
		t = http.DetectContentType(head)
		if i := strings.IndexByte(t, ';'); i >= 0 {
			t = t[:i] // DetectContentType says utf-8 for any text; decide below
		}
	}
	if !strings.HasPrefix(t, "text/") || strings.Contains(t, "charset=") {
		return t
	}
	cs := textCharset(head, whole)
	if cs == "windows-1252" && (t == "text/html" || t == "text/xml") {
		return t
	}
	return t + "; charset=" + cs
}

// textCharset names the charset of text whose first bytes are head.
func textCharset(head []byte, whole bool) string {
	switch {
	case bytes.HasPrefix(head, []byte{0xEF, 0xBB, 0xBF}):
		return "utf-8"
	case bytes.HasPrefix(head, []byte{0xFE, 0xFF}):
		return "utf-16be"
	case bytes.HasPrefix(head, []byte{0xFF, 0xFE}):
		return "utf-16le"
	}
	if !whole {
		// A character cut by the end of the buffer is not an error: drop
		// up to three bytes of an incomplete sequence at the end.
		for i := 1; i <= 3 && i <= len(head); i++ {
			if utf8.RuneStart(head[len(head)-i]) {
				if !utf8.FullRune(head[len(head)-i:]) {
					head = head[:len(head)-i]
				}
				break
			}
		}
	}
	if utf8.Valid(head) {
		return "utf-8"
	}
	return "windows-1252"
}

// typeByName returns the media type for a file name by its suffix, or def
// when the suffix is unknown.
func typeByName(name, def string) string {
	if t, ok := byExtension[strings.ToLower(path.Ext(name))]; ok {
		return t
	}
	return def
}

// gopherType returns the media type of a gopher item of type t (RFC 1436
// section 3.8 and the types in common use since) whose selector is sel.
// The item type decides; the selector's suffix only refines a type that
// names a family (I: some image, s: some sound, d: some document). A
// binary item is never labelled text because of its name.
func gopherType(t byte, sel string) string {
	switch t {
	case '0':
		return textPlain
	case '4':
		return "application/mac-binhex40"
	case '5', '9':
		return octetStream
	case '6':
		return "text/x-uuencode"
	case 'g':
		return "image/gif"
	case 'p':
		return "image/png"
	case 'I', ':':
		if t := typeByName(sel, ""); strings.HasPrefix(t, "image/") {
			return t
		}
		return octetStream
	case 's', '<':
		if t := typeByName(sel, ""); strings.HasPrefix(t, "audio/") {
			return t
		}
		return octetStream
	case ';':
		if t := typeByName(sel, ""); strings.HasPrefix(t, "video/") {
			return t
		}
		return octetStream
	case 'd':
		if t := typeByName(sel, ""); t != "" && !strings.HasPrefix(t, "text/html") {
			return t
		}
		return octetStream
	case 'h':
		return "text/html"
	case 'M':
		return textPlain // a MIME message, shown as text
	case 'c':
		return "text/calendar"
	case 'x':
		return "text/xml"
	case 'r':
		return "text/rtf"
	}
	return octetStream
}

// gopherKind names an item type for a person, as menus show it.
func gopherKind(t byte) string {
	switch t {
	case '0':
		return "text"
	case '1':
		return "menu"
	case '2':
		return "cso"
	case '3':
		return "error"
	case '4':
		return "binhex"
	case '5':
		return "dos"
	case '6':
		return "uuenc"
	case '7':
		return "search"
	case '8':
		return "telnet"
	case '9':
		return "binary"
	case '+':
		return "mirror"
	case 'g', 'I', 'p', ':':
		return "image"
	case 'T':
		return "tn3270"
	case 'h':
		return "html"
	case 's', '<':
		return "sound"
	case ';':
		return "video"
	case 'd':
		return "doc"
	case 'i':
		return ""
	}
	return "file"
}
