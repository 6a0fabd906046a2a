package shellscan

import "testing"

// Python tools that install packages into the python that runs them or
// write the user's data directories, under their own names and through
// python -m, are opaque like pip outside a virtual environment of the
// workdir: easy_install, spacy download (which runs pip), ipykernel
// install, jupyter kernelspec/labextension install and jupyter trust, and
// playwright install-deps. Their other subcommands stay allowed.
func TestPythonToolsThatInstallAreOpaque(t *testing.T) {
	for _, line := range []string{
		`easy_install requests`, `python3 -m easy_install requests`, `easy_install-3.11 x`,
		`python3 -m spacy download en_core_web_sm`, `spacy download en_core_web_sm`,
		`python3 -m ipykernel install --user`, `ipykernel install --user --name x`,
		`jupyter kernelspec install --user ./k`, `jupyter labextension install x`, `jupyter trust nb.ipynb`,
		`jupyter nbextension enable x`, `playwright install-deps`, `playwright install --with-deps`,
		`python3 -m playwright install chromium`, `python3 -m spacy.cli download en`,
		`python3 -m uv.__main__ tool run x`, `python3 -m conda.cli.main install x`,
	} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) == 0 {
			t.Errorf("%q is not opaque", line)
		}
	}
	for _, line := range []string{
		`python3 -m spacy info`, `spacy train config.cfg --output ./out`, `jupyter nbconvert --to html nb.ipynb`,
		`jupyter kernelspec list`, `jupyter --paths`, `playwright codegen`, `python3 -m spacy --help`,
		`python3 -m spacy.cli info`, `python3 -m json.tool x.json`, `python3 -m http.server 8000`,
		`python3 -m unittest.mock`, `python3 -m pip._internal --version`,
	} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) > 0 {
			t.Errorf("%q is opaque: %q", line, a.reasons)
		}
	}
}

// python -m of a data downloader that writes the user's data directories
// (nltk.downloader into ~/nltk_data, textblob.download_corpora,
// gensim.downloader --download into ~/gensim-data) is opaque, unless it
// names its directory (-d, a word the gate judges) or only shows what
// there is; a downloader that fills a cache the tool owns
// (huggingface-cli download) stays allowed, and a directory it is given
// is a word judged as any other.
func TestPythonDataDownloaders(t *testing.T) {
	for _, line := range []string{
		`python3 -m nltk.downloader punkt`, `python -m nltk.downloader all`, `.venv/bin/python -m nltk.downloader -q punkt`,
		`python3 -m nltk.downloader --halt_on_error punkt`, `python3 -m nltk.downloader -qd ./d punkt`,
		`python3 -m textblob.download_corpora`, `python3 -m textblob.download_corpora lite`,
		`python3 -m gensim.downloader --download glove-twitter-25`, `python3 -m gensim.downloader -d glove`,
		`python3 -m nltk.downloader "$X" punkt`,
	} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) == 0 {
			t.Errorf("%q is not opaque", line)
		}
	}
	for _, line := range []string{
		`python3 -m nltk.downloader -d ./nltk_data punkt`, `python3 -m nltk.downloader --dir=./d punkt`,
		`python3 -m nltk.downloader -d./d punkt`, `python3 -m nltk.downloader --di ./d punkt`,
		`python3 -m nltk.downloader --help`, `python3 -m gensim.downloader --info`, `python3 -m gensim.downloader -i glove`,
		`huggingface-cli download gpt2`, `huggingface-cli download gpt2 --local-dir ./m`, `python3 -m nltk.tokenize x`,
	} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) > 0 {
			t.Errorf("%q is opaque: %q", line, a.reasons)
		}
	}
}
