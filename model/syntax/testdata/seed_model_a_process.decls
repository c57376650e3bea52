// Model A, template Process() local declarations (section 3.3).
clock x;
