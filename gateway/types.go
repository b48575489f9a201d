package gateway

import (
	"path"
	"strings"
)

// byExtension maps file name suffixes to media types. It is a fixed table,
// not the host's mime.types, so the gateway answers the same everywhere.
var byExtension = map[string]string{
	".txt": "text/plain; charset=utf-8", ".text": "text/plain; charset=utf-8",
	".md": "text/plain; charset=utf-8", ".c": "text/plain; charset=utf-8",
	".h": "text/plain; charset=utf-8", ".go": "text/plain; charset=utf-8",
	".readme": "text/plain; charset=utf-8", ".asc": "text/plain; charset=utf-8",
	".html": "text/html; charset=utf-8", ".htm": "text/html; charset=utf-8",
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
		return "text/plain; charset=utf-8"
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
		return "text/html; charset=utf-8"
	case 'M':
		return "text/plain; charset=utf-8" // a MIME message, shown as text
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
