package shellscan

import "testing"

// python -m runs the Python tools of settingsCode under their module
// names (PyInstaller, towncrier, piptools, commitizen, semantic_release,
// bumpversion): a line that writes their settings first runs what it
// wrote, as it does when it names their programs (review47g: all
// allowed before).
func TestReview47gPythonModuleSettings(t *testing.T) {
	opaque := []string{
		"echo x > x.spec && python3 -m PyInstaller x.spec", "echo x > x.spec && python3 -mPyInstaller --noconfirm x.spec",
		"echo x > towncrier.toml && python3 -m towncrier build", "echo x > requirements.in && python3 -m piptools compile",
		"echo x > .cz.toml && python3 -m commitizen bump", "echo x >> pyproject.toml && python -m semantic_release version",
		"echo x > .bumpversion.cfg && python3 -m bumpversion patch",
	}
	clean := []string{
		"python3 -m PyInstaller x.spec", "python3 -m towncrier build --draft", "echo x > notes.txt && python3 -m piptools compile",
	}
	checkRT57Lines(t, opaque, clean)
}
