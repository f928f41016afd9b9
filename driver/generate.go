package driver

//go:generate go run ../cmd/regmapgen -root ..
