package tools

import "github.com/cairn-dev/cairn/core/regfile"

// ReadRegular reads the regular file at path, refusing a directory, a
// device or a pipe (reading one could block or never end) and a file
// longer than max bytes. Front ends use it for what a model or a host
// names: previews, attachments. It is regfile.Read, refusing what that
// would cut.
func ReadRegular(path string, max int64) ([]byte, error) {
	data, err := regfile.Read(path, max)
	if err != nil {
		return nil, err
	}
	return data, nil
}
