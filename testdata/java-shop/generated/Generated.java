class Generated {}
