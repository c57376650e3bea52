package uppaal

import (
	"os"
	"path/filepath"
	"testing"
)

// seeds adds the files matching the patterns to the corpus.
func seeds(f *testing.F, patterns ...string) {
	for _, p := range patterns {
		files, _ := filepath.Glob(p)
		for _, name := range files {
			if b, err := os.ReadFile(name); err == nil {
				f.Add(b)
			}
		}
	}
}

// FuzzParseXML reads arbitrary bytes as UPPAAL XML: no panics; a model
// that reads and compiles can be written as XML and read back.
func FuzzParseXML(f *testing.F) {
	seeds(f, demoDir+"/*.xml", "testdata/*.xml", "testdata/errors/*.xml")
	f.Add([]byte(`<nta><template><name>P</name><location id="a"/><init ref="a"/></template><system>system P;</system></nta>`))
	f.Fuzz(func(t *testing.T, src []byte) {
		m, err := ParseXML("fuzz.xml", src)
		if err != nil {
			return
		}
		FormatYAML(m)
		if _, err := m.Compile(nil); err != nil {
			return
		}
		b, _ := FormatXML(m)
		if _, err := ParseXML("again.xml", b); err != nil {
			t.Errorf("a compiled model written as XML does not read back: %v\n%s", err, b)
		}
		FormatXTA(m)
	})
}

// FuzzParseXTA reads arbitrary text as XTA: no panics; a model that reads
// and compiles can be written as XTA and read back.
func FuzzParseXTA(f *testing.F) {
	seeds(f, demoDir+"/*.xta", "testdata/*.xta", "testdata/errors/*.xta")
	f.Add([]byte("process P() { state a; init a; trans a -> a { }, -> a { }; }\nsystem P;"))
	f.Add([]byte("const N 2;\nprocess P(const id; int x) { state a {x<=N, x>=0}; init a; }\nP1 = P(1, 2);\nsystem P1;"))
	f.Add([]byte("\xa9{}system")) // not UTF-8: an error, not a panic in the YAML writer
	// The syntax of issue 17's later rows: UPPAAL 5's power operator, a
	// range without 0 and no initialiser, meta variables.
	f.Add([]byte("const int K = 2 ** 3;\nmeta int tmp;\nmeta bool seen[2];\nint[1,100] n;\nprocess P() { clock x; state a {x <= K}; init a; trans a -> a { guard x >= -2 ** 2; assign n = 3 ** 2 ** 1, x = 0; }; }\nsystem P;"))
	f.Fuzz(func(t *testing.T, src []byte) {
		m, err := ParseXTA("fuzz.xta", src)
		if err != nil {
			return
		}
		FormatYAML(m)
		if _, err := m.Compile(nil); err != nil {
			return
		}
		b, _ := FormatXTA(m)
		if _, err := ParseXTA("again.xta", b); err != nil {
			t.Errorf("a compiled model written as XTA does not read back: %v\n%s", err, b)
		}
		FormatXML(m)
	})
}

// FuzzParseQFile reads arbitrary text as a query file: no panics; the
// queries written back read back with the same names.
func FuzzParseQFile(f *testing.F) {
	seeds(f, demoDir+"/*.q", "testdata/*.q", "testdata/errors/*.q")
	f.Add([]byte("/* [a] x\nEXPECT: satisfied */\nE<> P.a \\\n && true\n// EXPECT: 3\nsup: x\n"))
	// Inputs the fuzzer found: a `//*` comment that looked like a block
	// comment's star when written back, lone and stray backslashes, a
	// query that is only a comment.
	for _, s := range []string{"//*[0]\n0", "\\", "\\\\", "\\\n //"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		qs, err := ParseQueries("fuzz.q", src)
		if err != nil {
			return
		}
		back, err := ParseQueries("again.q", FormatQueries(qs))
		if err != nil {
			t.Fatalf("written queries do not read back: %v", err)
		}
		if len(back) != len(qs) {
			t.Fatalf("%d queries, %d read back", len(qs), len(back))
		}
		for i := range qs {
			if back[i].Name != qs[i].Name {
				t.Errorf("query %d: name %q read back as %q", i+1, qs[i].Name, back[i].Name)
			}
		}
	})
}
