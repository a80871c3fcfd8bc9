package catalog

// Debian is how Debian ships a release series and how the local Slurm lab
// (lab/localslurm) runs it: the debian, lab and debootstrap columns of
// data/releases.tsv, the one place that states them (.ci/build-rootfs.sh
// reads the same columns).
type Debian struct {
	// Suite is the Debian suite whose Slurm packages are of the series,
	// such as "trixie"; "" when no suite is.
	Suite string
	// Lab is how the local Slurm lab runs the series.
	Lab Lab
	// Debootstrap is the debootstrap script .ci/build-rootfs.sh builds the
	// suite's root file system with ("sid" builds forky); "" unless Lab is
	// LabRootFS.
	Debootstrap string
}

// Lab is how the local Slurm lab runs a release series.
type Lab uint8

// The ways the lab runs a series.
const (
	// LabNone: the lab does not run the series.
	LabNone Lab = iota
	// LabHost: the lab runs the host's own Slurm packages of the Suite,
	// which .ci/install-slurm.sh installs; nothing is built.
	LabHost
	// LabRootFS: the lab runs the Suite's packages from a root file
	// system that .ci/build-rootfs.sh builds.
	LabRootFS
)

// Debian returns how Debian ships v and the lab runs it; the zero Debian
// for a series no suite ships or an invalid version.
func (v Version) Debian() Debian {
	if !v.Valid() {
		return Debian{}
	}
	return debianOf[v]
}

// LabVersions returns the series the local Slurm lab runs (Lab is not
// LabNone), oldest first.
func LabVersions() []Version {
	var out []Version
	for _, v := range Versions() {
		if v.Debian().Lab != LabNone {
			out = append(out, v)
		}
	}
	return out
}
