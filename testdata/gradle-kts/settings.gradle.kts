rootProject.name = "kshop"

// include(":retired")
include(":app", ":lib:core")
include(
    ":util",
)
project(":util").projectDir = file("libs/util")
