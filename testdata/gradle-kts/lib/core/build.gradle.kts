dependencies {
    implementation(project(":util"))
}
