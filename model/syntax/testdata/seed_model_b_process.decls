// Model B, template Process(const pid_t id, const bool mayFail) local declarations (4.4).
clock x;
