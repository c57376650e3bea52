package syntax

import "fmt"

// tokKind is the kind of a lexical token.
type tokKind int

const (
	tEOF   tokKind = iota
	tError         // a lexical error; token text is the message
	tIdent
	tInt
	tFloat  // floating-point literal (rejected by the parser)
	tString // string literal (rejected by the parser)

	// punctuation
	tLParen
	tRParen
	tLBrack
	tRBrack
	tLBrace
	tRBrace
	tComma
	tSemi
	tColon
	tDot
	tQuestion
	tTick // ' (clock rate: x')

	// assignment operators
	tAssign    // =
	tColonEq   // :=
	tAddAssign // +=
	tSubAssign
	tMulAssign
	tDivAssign
	tModAssign
	tAndAssign // &=
	tOrAssign  // |=
	tXorAssign // ^=
	tShlAssign // <<=
	tShrAssign // >>=

	// other operators
	tInc // ++
	tDec // --
	tPlus
	tMinus
	tStar
	tPow // ** (UPPAAL 5)
	tSlash
	tPercent
	tAmp   // &
	tPipe  // |
	tCaret // ^
	tShl   // <<
	tShr   // >>
	tTilde // ~
	tBang  // !
	tLT
	tLE
	tEQ
	tNE
	tGE
	tGT
	tAndAnd // &&
	tOrOr   // ||
	tMin    // <?
	tMax    // >?
	tLeadsTo

	// keywords
	kConst
	kInt
	kBool
	kClock
	kChan
	kUrgent
	kBroadcast
	kVoid
	kTypedef
	kStruct
	kTrue
	kFalse
	kIf
	kElse
	kFor
	kWhile
	kDo
	kReturn
	kBreak
	kContinue
	kForall
	kExists
	kSum
	kImply
	kAnd
	kOr
	kNot
	kSystem
	kDeadlock
	kMeta
	kDouble
	kHybrid
	kScalar
	kString
	kPriority
	kSwitch
	kCase
	kDefault

	numTokKinds
)

// tokText is the source spelling of each fixed token (used in messages).
var tokText = [numTokKinds]string{
	tEOF: "end of input", tError: "error", tIdent: "identifier", tInt: "integer literal",
	tFloat: "floating-point literal", tString: "string literal",
	tLParen: "(", tRParen: ")", tLBrack: "[", tRBrack: "]", tLBrace: "{", tRBrace: "}",
	tComma: ",", tSemi: ";", tColon: ":", tDot: ".", tQuestion: "?", tTick: "'",
	tAssign: "=", tColonEq: ":=", tAddAssign: "+=", tSubAssign: "-=", tMulAssign: "*=",
	tDivAssign: "/=", tModAssign: "%=", tAndAssign: "&=", tOrAssign: "|=", tXorAssign: "^=",
	tShlAssign: "<<=", tShrAssign: ">>=",
	tInc: "++", tDec: "--", tPlus: "+", tMinus: "-", tStar: "*", tPow: "**", tSlash: "/", tPercent: "%",
	tAmp: "&", tPipe: "|", tCaret: "^", tShl: "<<", tShr: ">>", tTilde: "~", tBang: "!",
	tLT: "<", tLE: "<=", tEQ: "==", tNE: "!=", tGE: ">=", tGT: ">", tAndAnd: "&&", tOrOr: "||",
	tMin: "<?", tMax: ">?", tLeadsTo: "-->",
	kConst: "const", kInt: "int", kBool: "bool", kClock: "clock", kChan: "chan",
	kUrgent: "urgent", kBroadcast: "broadcast", kVoid: "void", kTypedef: "typedef",
	kStruct: "struct", kTrue: "true", kFalse: "false", kIf: "if", kElse: "else", kFor: "for",
	kWhile: "while", kDo: "do", kReturn: "return", kBreak: "break", kContinue: "continue",
	kForall: "forall", kExists: "exists", kSum: "sum", kImply: "imply", kAnd: "and", kOr: "or",
	kNot: "not", kSystem: "system", kDeadlock: "deadlock", kMeta: "meta", kDouble: "double",
	kHybrid: "hybrid", kScalar: "scalar", kString: "string", kPriority: "priority",
	kSwitch: "switch", kCase: "case", kDefault: "default",
}

// keywords maps reserved words to their token kinds. `init` is deliberately
// not reserved: it is a common location name (`Process.init`).
var keywords = func() map[string]tokKind {
	m := make(map[string]tokKind)
	for k := kConst; k < numTokKinds; k++ {
		m[tokText[k]] = k
	}
	return m
}()

// IsKeyword reports whether name is a reserved word of the language (and so
// cannot be used as an identifier).
func IsKeyword(name string) bool {
	_, ok := keywords[name]
	return ok
}

// token is one lexical token.
type token struct {
	kind tokKind
	text string // source text (identifiers, literals); the message for tError
	pos  Pos
	val  int64 // tInt
}

// describe renders the token for "found ..." in error messages.
func (t token) describe() string {
	switch t.kind {
	case tEOF:
		return "end of input"
	case tIdent, tInt, tFloat:
		return "'" + t.text + "'"
	case tString:
		return "string literal " + t.text
	}
	return "'" + tokText[t.kind] + "'"
}

// quoteKind renders a token kind for "expected ..." in error messages.
func quoteKind(k tokKind) string {
	switch k {
	case tEOF, tIdent, tInt, tFloat, tString:
		return tokText[k]
	}
	return "'" + tokText[k] + "'"
}

func (k tokKind) String() string {
	if k >= 0 && k < numTokKinds {
		return tokText[k]
	}
	return fmt.Sprintf("tokKind(%d)", int(k))
}
