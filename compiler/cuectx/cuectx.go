// Package cuectx makes the CUE evaluation contexts slurmspec uses for its
// schema and for specs written in CUE.
//
// cuecontext.New, the documented constructor, also installs CUE's @embed
// injection. Its package initialisers (the protobuf, XML and JSON Schema
// encoders that @embed can decode, and every builtin package including the
// tool/* ones that only `cue cmd` runs) run at the start of every process
// that links it: 6.5 ms of a 27 ms start-up measured on 2 cores, more time
// than linting a spec takes, and slurmspec runs in pre-commit hooks on every
// commit. slurmspec never embeds files from CUE (specs are single files
// evaluated without a module), so New makes a context from CUE's runtime
// alone, through the deprecated cue.Runtime: the same runtime cuecontext.New
// makes, without the injection. The builtin packages that evaluation can
// use are registered by this package's imports; the tool/* packages are not.
package cuectx

import (
	"cuelang.org/go/cue"

	// Every builtin package that plain evaluation may import (the list of
	// cuelang.org/go/pkg without tool/...). TestBuiltins keeps it complete.
	_ "cuelang.org/go/pkg/crypto/ed25519"
	_ "cuelang.org/go/pkg/crypto/hmac"
	_ "cuelang.org/go/pkg/crypto/md5"
	_ "cuelang.org/go/pkg/crypto/sha1"
	_ "cuelang.org/go/pkg/crypto/sha256"
	_ "cuelang.org/go/pkg/crypto/sha512"
	_ "cuelang.org/go/pkg/encoding/base64"
	_ "cuelang.org/go/pkg/encoding/csv"
	_ "cuelang.org/go/pkg/encoding/hex"
	_ "cuelang.org/go/pkg/encoding/json"
	_ "cuelang.org/go/pkg/encoding/openapi"
	_ "cuelang.org/go/pkg/encoding/toml"
	_ "cuelang.org/go/pkg/encoding/yaml"
	_ "cuelang.org/go/pkg/html"
	_ "cuelang.org/go/pkg/list"
	_ "cuelang.org/go/pkg/math"
	_ "cuelang.org/go/pkg/math/bits"
	_ "cuelang.org/go/pkg/net"
	_ "cuelang.org/go/pkg/path"
	_ "cuelang.org/go/pkg/regexp"
	_ "cuelang.org/go/pkg/strconv"
	_ "cuelang.org/go/pkg/strings"
	_ "cuelang.org/go/pkg/struct"
	_ "cuelang.org/go/pkg/text/tabwriter"
	_ "cuelang.org/go/pkg/text/template"
	_ "cuelang.org/go/pkg/time"
	_ "cuelang.org/go/pkg/uuid"
)

// New returns a new CUE evaluation context with the builtin packages and no
// injections. Values from contexts made by New may be combined.
func New() *cue.Context {
	//lint:ignore SA1019 cue.Runtime is the one way to a context without cuecontext's @embed injection (see the package documentation).
	var r cue.Runtime
	// Compiling nothing initialises the runtime; the context is the value's.
	//lint:ignore SA1019 as above.
	inst, err := r.Compile("empty.cue", "")
	if err != nil {
		// An empty file always compiles; this is unreachable.
		panic("cuectx: compiling an empty file: " + err.Error())
	}
	//lint:ignore SA1019 the value is the fresh runtime's own, so its context is defined.
	return inst.Value().Context()
}
