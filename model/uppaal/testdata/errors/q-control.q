// a controller synthesis query (UPPAAL TIGA)
control: A<> P.b
